import { ApiError } from './api-error';
import { multipartError } from './multipart-error';

const limits = { maxFileBytes: 1000, maxFilesPerRequest: 3 };
const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code });
const view = (e: unknown) => (e instanceof ApiError ? [e.status, e.code, e.message] : e);

describe('multipartError', () => {
  it('maps the limits to 413 naming the cap', () => {
    expect(view(multipartError(coded('FST_REQ_FILE_TOO_LARGE'), limits))).toEqual([
      413,
      'file_too_large',
      'files: each file may be at most 1000 bytes',
    ]);
    expect(view(multipartError(coded('FST_FILES_LIMIT'), limits))).toEqual([413, 'too_many_files', 'files: at most 3 files per request']);
    expect(view(multipartError(coded('FST_PARTS_LIMIT'), limits))).toEqual([413, 'too_many_parts', 'too many form parts']);
    expect(view(multipartError(coded('FST_FIELDS_LIMIT'), limits))).toEqual([413, 'too_many_parts', 'too many form parts']);
  });

  it('maps an unreadable body to 400 invalid_multipart, saying why where it can', () => {
    for (const e of [
      coded('FST_INVALID_MULTIPART_CONTENT_TYPE'),
      coded('FST_PROTO_VIOLATION'),
      coded('FST_MP_PREMATURE_CLOSE'),
      new Error('Unexpected end of multipart data'),
      new Error('Multipart: Boundary not found'),
    ]) {
      const mapped = multipartError(e, limits);
      expect(mapped).toBeInstanceOf(ApiError);
      expect([(mapped as ApiError).status, (mapped as ApiError).code]).toEqual([400, 'invalid_multipart']);
    }
    expect((multipartError(new Error('Unexpected end of multipart data'), limits) as ApiError).message).toMatch(/closing boundary/);
    expect(view(multipartError(coded('FST_INVALID_JSON_FIELD_ERROR'), limits))).toEqual([
      400,
      'parameter_invalid',
      expect.stringContaining('items'),
    ]);
  });

  it('leaves anything else as it is (a storage failure stays a 5xx)', () => {
    const e = new Error('EIO: disk gone');
    expect(multipartError(e, limits)).toBe(e);
  });
});
