import { describeMotionProviderContract } from '@image-ar/plugin-sdk/testing';
import { proceduralMotionProvider } from './procedural-motion.adapter';

// The built-in offline motion model passes the motion provider contract kit of @image-ar/plugin-sdk
// (the one custom motion models run): real frames of the requested size and count, alpha kept, abort honoured.
describeMotionProviderContract(() => proceduralMotionProvider, { name: 'procedural (built in)' });
