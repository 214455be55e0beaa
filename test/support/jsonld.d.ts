// The part of jsonld (https://github.com/digitalbazaar/jsonld.js, no bundled types) the tests use.
declare module 'jsonld' {
  interface RemoteDocument {
    contextUrl: string | null;
    documentUrl: string;
    document: unknown;
  }
  export function expand(
    input: unknown,
    options?: { documentLoader?: (url: string) => Promise<RemoteDocument> },
  ): Promise<Record<string, unknown>[]>;
}
