import { presentationView } from './v2-job-view';

describe('presentationView', () => {
  it('shows the presentation fields a result carries, a null mat included', () => {
    const r = {
      files: {},
      dimensions: { width_inches: 36, height_inches: 24 },
      placement: 'wall',
      allow_scaling: false,
      finish: 'unlit',
      frame: { style: 'canvas', width_inches: 0, depth_inches: 1.5, color: 'white', edge: 'mirror' },
      mat: null,
      outer_dimensions: { width_inches: 36, height_inches: 24, depth_inches: 1.5 },
      banner: {},
    };
    expect(presentationView(r)).toEqual({
      placement: 'wall',
      allow_scaling: false,
      finish: 'unlit',
      frame: r.frame,
      mat: null,
      outer_dimensions: r.outer_dimensions,
      banner: {},
    });
  });

  it('invents nothing for results written before them', () => {
    expect(
      presentationView({ files: {}, dimensions: { width_inches: 24, height_inches: 24 }, texture: { width: 10, height: 10 } }),
    ).toEqual({});
    expect(presentationView(null)).toEqual({});
  });
});
