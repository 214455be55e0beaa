import { createHash } from 'node:crypto';
import { createReadStream, mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { S3Config } from '@app/config';
import {
  assertSafeKey,
  type ObjectStat,
  spoolToFile,
  type StoragePort,
  type StoredObject,
  STORED_FILE_CACHE_CONTROL,
} from './storage.port';

/** Endpoint, bucket, credentials and public base URL: the S3 part of the configuration. */
export type S3StorageOptions = S3Config;

/** S3-compatible object storage (AWS S3, MinIO, R2, Ceph RGW...). */
export class S3StorageAdapter implements StoragePort {
  readonly driver = 's3';
  private readonly client: S3Client;
  private readonly base: string;

  constructor(private readonly opts: S3StorageOptions) {
    this.client = new S3Client({
      region: opts.region,
      endpoint: opts.endpoint,
      forcePathStyle: opts.forcePathStyle,
      // We send Content-MD5 ourselves. The SDK's default CRC trailer turns stream bodies into
      // aws-chunked uploads, which several S3-compatible servers store verbatim.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      credentials:
        opts.accessKeyId && opts.secretAccessKey ? { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } : undefined,
    });
    const endpoint = (opts.endpoint ?? `https://s3.${opts.region}.amazonaws.com`).replace(/\/+$/, '');
    this.base = opts.publicBaseUrl ?? `${endpoint}/${opts.bucket}`;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    const md5 = createHash('md5').update(body).digest('base64');
    const r = await this.client.send(
      new PutObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ContentMD5: md5,
        CacheControl: STORED_FILE_CACHE_CONTROL,
      }),
    );
    return { key, size: body.length, contentType, etag: r.ETag ?? `"${md5}"` };
  }

  /** Spools to a temporary file first: PutObject needs the length and MD5 up front, memory stays flat. */
  async putStream(key: string, body: Readable, contentType: string): Promise<StoredObject> {
    assertSafeKey(key);
    const dir = mkdtempSync(join(tmpdir(), 's3-upload-'));
    const file = join(dir, 'body');
    try {
      const { size, digest } = await spoolToFile(body, file, 'md5');
      const md5 = digest.toString('base64');
      const r = await this.client.send(
        new PutObjectCommand({
          Bucket: this.opts.bucket,
          Key: key,
          Body: createReadStream(file),
          ContentLength: size,
          ContentType: contentType,
          ContentMD5: md5,
          CacheControl: STORED_FILE_CACHE_CONTROL,
        }),
      );
      return { key, size, contentType, etag: r.ETag ?? `"${md5}"` };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  async stat(key: string): Promise<ObjectStat | null> {
    assertSafeKey(key);
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.opts.bucket, Key: key }));
      return {
        key,
        size: r.ContentLength ?? 0,
        contentType: r.ContentType ?? 'application/octet-stream',
        etag: r.ETag ?? '',
        lastModified: r.LastModified ?? new Date(0),
      };
    } catch (err) {
      const status = (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status === 404) return null;
      throw err;
    }
  }

  async read(key: string, range?: { start: number; end: number }): Promise<Readable> {
    assertSafeKey(key);
    const r = await this.client.send(
      new GetObjectCommand({
        Bucket: this.opts.bucket,
        Key: key,
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return r.Body as Readable;
  }

  url(key: string): string {
    assertSafeKey(key);
    return `${this.base}/${key}`;
  }

  async delete(key: string): Promise<void> {
    assertSafeKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.opts.bucket, Key: key }));
  }

  async ping(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.opts.bucket }));
  }

  destroy(): void {
    this.client.destroy();
  }
}
