import type { Locale } from '../locales';
import { de } from './de';
import { en, type MessageKey } from './en';
import { es } from './es';
import { fr } from './fr';
import { it } from './it';
import { ja } from './ja';
import { nl } from './nl';

export type { MessageKey } from './en';

/**
 * Every locale's catalogue. Typed `Record<Locale, …>` so that adding a locale to SUPPORTED_LOCALES fails
 * to compile until its catalogue is here; each catalogue is `satisfies Record<MessageKey, string>`, so a
 * missing or extra key fails too.
 */
export const CATALOGUES: Readonly<Record<Locale, Readonly<Record<MessageKey, string>>>> = { en, de, fr, es, it, nl, ja };
