import { UserError } from '@app/pipeline';
import { aspectsDiffer, centredCrop, parseFit, planFit } from './fit';

describe('parseFit', () => {
  it('reads "crop" and "stretch"; absent or null is "stretch"', () => {
    expect(parseFit({ fit: 'crop' })).toBe('crop');
    expect(parseFit({ fit: 'stretch' })).toBe('stretch');
    expect(parseFit({})).toBe('stretch');
    expect(parseFit({ fit: null })).toBe('stretch');
  });

  it.each([['cover'], ['CROP'], [''], [1], [true], [{}]])('refuses %p naming the parameter', (fit) => {
    let e: unknown;
    try {
      parseFit({ fit });
    } catch (err) {
      e = err;
    }
    expect(e).toBeInstanceOf(UserError);
    expect(e).toMatchObject({ code: 'parameter_invalid', message: 'fit: must be one of "crop", "stretch"' });
    expect((e as UserError).param).toBe('fit');
  });
});

describe('planFit', () => {
  it('applies the mode asked for when the aspects differ by more than 1 %, in either direction', () => {
    expect(planFit('crop', 400, 300, 1)).toEqual({ requested: 'crop', applied: 'crop', source_aspect: 1.3333, target_aspect: 1 });
    expect(planFit('stretch', 400, 300, 1)).toEqual({ requested: 'stretch', applied: 'stretch', source_aspect: 1.3333, target_aspect: 1 });
    expect(planFit('crop', 300, 400, 40 / 30).applied).toBe('crop');
    expect(planFit('crop', 1000, 1000, 1.0101).applied).toBe('crop');
  });

  it("is 'none' within 1 %", () => {
    expect(planFit('crop', 1005, 1000, 1)).toEqual({ requested: 'crop', applied: 'none', source_aspect: 1.005, target_aspect: 1 });
    expect(planFit('stretch', 1000, 1005, 1).applied).toBe('none');
    expect(planFit('crop', 1010, 1000, 1).applied).toBe('none');
    expect(aspectsDiffer(1, 1.0099)).toBe(false);
    expect(aspectsDiffer(1.0101, 1)).toBe(true);
  });
});

describe('centredCrop', () => {
  it('keeps the largest centred region of the aspect', () => {
    expect(centredCrop(400, 300, 1)).toEqual({ left: 50, top: 0, width: 300, height: 300 });
    expect(centredCrop(300, 400, 1)).toEqual({ left: 0, top: 50, width: 300, height: 300 });
    expect(centredCrop(600, 600, 40 / 30)).toEqual({ left: 0, top: 75, width: 600, height: 450 });
    expect(centredCrop(1, 1000, 100)).toEqual({ left: 0, top: 499, width: 1, height: 1 });
  });
});
