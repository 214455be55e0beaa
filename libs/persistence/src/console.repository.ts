import type { DataSource } from 'typeorm';
import { randomId } from './ids';
import { returnedRows } from './returning';

export type ConsoleRole = 'customer' | 'owner';

/** A console account: the user row's sign-in fields. */
export interface ConsoleUserRow {
  id: string;
  email: string;
  name: string | null;
  consoleRole: ConsoleRole;
  passwordHash: string | null;
  internal: boolean;
}

export interface ConsoleInviteRow {
  id: string;
  userId: string;
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

/** A live session joined with its user. */
export interface ConsoleSessionRow {
  userId: string;
  email: string;
  name: string | null;
  consoleRole: ConsoleRole;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

/** The invite could not be used: unknown, expired or already used (told apart for the page's message). */
export type InviteRedeemFailure = 'unknown' | 'expired' | 'used';

const USER_COLUMNS = `"id", "email", "name", "console_role", "password_hash", "internal"`;

const toUser = (r: Record<string, any>): ConsoleUserRow => ({
  id: r.id,
  email: r.email,
  name: r.name ?? null,
  consoleRole: r.console_role,
  passwordHash: r.password_hash ?? null,
  internal: r.internal,
});

const toInvite = (r: Record<string, any>): ConsoleInviteRow => ({
  id: r.id,
  userId: r.user_id,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  usedAt: r.used_at ?? null,
});

const toSession = (r: Record<string, any>): ConsoleSessionRow => ({
  userId: r.user_id,
  email: r.email,
  name: r.name ?? null,
  consoleRole: r.console_role,
  csrfToken: r.csrf_token,
  createdAt: r.created_at,
  expiresAt: r.expires_at,
  lastSeenAt: r.last_seen_at,
});

/**
 * Console sign-in state: invites and sessions, both stored by the SHA-256 of their secret only (the
 * caller hashes), and the password hash and console role on the user row.
 */
export class ConsoleRepository {
  constructor(private readonly ds: DataSource) {}

  async findUserByEmail(email: string): Promise<ConsoleUserRow | null> {
    const rows = await this.ds.query(`SELECT ${USER_COLUMNS} FROM "users" WHERE lower("email") = lower($1) AND NOT "internal"`, [email]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  async findUser(id: string): Promise<ConsoleUserRow | null> {
    const rows = await this.ds.query(`SELECT ${USER_COLUMNS} FROM "users" WHERE "id" = $1 AND NOT "internal"`, [id]);
    return rows[0] ? toUser(rows[0]) : null;
  }

  /** Sets the console role (an invite may promote a user to owner; it never demotes). */
  async setRole(userId: string, role: ConsoleRole): Promise<void> {
    await this.ds.query(`UPDATE "users" SET "console_role" = $2 WHERE "id" = $1`, [userId, role]);
  }

  async createInvite(userId: string, tokenHash: string, expiresAt: Date): Promise<ConsoleInviteRow> {
    const rows = await this.ds.query(
      `INSERT INTO "console_invites" ("id", "user_id", "token_hash", "expires_at") VALUES ($1, $2, $3, $4) RETURNING "id", "user_id", "created_at", "expires_at", "used_at"`,
      [randomId('inv'), userId, tokenHash, expiresAt],
    );
    return toInvite(rows[0]);
  }

  /** The invite with this token hash, used or not (the page tells an expired or used link apart). */
  async findInvite(tokenHash: string): Promise<(ConsoleInviteRow & { email: string }) | null> {
    const rows = await this.ds.query(
      `SELECT i."id", i."user_id", i."created_at", i."expires_at", i."used_at", u."email" FROM "console_invites" i JOIN "users" u ON u."id" = i."user_id" WHERE i."token_hash" = $1`,
      [tokenHash],
    );
    return rows[0] ? { ...toInvite(rows[0]), email: rows[0].email } : null;
  }

  /**
   * Marks the invite used and sets the password in one transaction; the conditional UPDATE makes the
   * invite single-use even when two requests race.
   */
  async redeemInvite(tokenHash: string, passwordHash: string): Promise<{ userId: string } | { failure: InviteRedeemFailure }> {
    return this.ds.transaction(async (m) => {
      const res = await m.query(
        `UPDATE "console_invites" SET "used_at" = now() WHERE "token_hash" = $1 AND "used_at" IS NULL AND "expires_at" > now() RETURNING "user_id"`,
        [tokenHash],
      );
      const rows = returnedRows(res) as { user_id: string }[];
      if (!rows[0]) {
        const found = await m.query(`SELECT "used_at", "expires_at" > now() AS live FROM "console_invites" WHERE "token_hash" = $1`, [
          tokenHash,
        ]);
        return { failure: !found[0] ? 'unknown' : found[0].used_at ? 'used' : 'expired' };
      }
      await m.query(`UPDATE "users" SET "password_hash" = $2 WHERE "id" = $1`, [rows[0].user_id, passwordHash]);
      // A new password ends every session signed in with the old one.
      await m.query(`DELETE FROM "console_sessions" WHERE "user_id" = $1`, [rows[0].user_id]);
      return { userId: rows[0].user_id };
    });
  }

  async createSession(idHash: string, userId: string, csrfToken: string, expiresAt: Date): Promise<void> {
    await this.ds.query(`INSERT INTO "console_sessions" ("id_hash", "user_id", "csrf_token", "expires_at") VALUES ($1, $2, $3, $4)`, [
      idHash,
      userId,
      csrfToken,
      expiresAt,
    ]);
  }

  /** The live session with this id hash and its user; null when unknown or expired. */
  async findSession(idHash: string): Promise<ConsoleSessionRow | null> {
    const rows = await this.ds.query(
      `SELECT s."user_id", u."email", u."name", u."console_role", s."csrf_token", s."created_at", s."expires_at", s."last_seen_at"
         FROM "console_sessions" s JOIN "users" u ON u."id" = s."user_id" WHERE s."id_hash" = $1 AND s."expires_at" > now()`,
      [idHash],
    );
    return rows[0] ? toSession(rows[0]) : null;
  }

  /** Slides the session's expiry (idle timeout) and records when it was last seen. */
  async touchSession(idHash: string, expiresAt: Date): Promise<void> {
    await this.ds.query(`UPDATE "console_sessions" SET "last_seen_at" = now(), "expires_at" = $2 WHERE "id_hash" = $1`, [
      idHash,
      expiresAt,
    ]);
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.ds.query(`DELETE FROM "console_sessions" WHERE "id_hash" = $1`, [idHash]);
  }

  /** Drops expired sessions and invites; returns how many sessions went. */
  async deleteExpired(): Promise<number> {
    await this.ds.query(`DELETE FROM "console_invites" WHERE "expires_at" < now() - interval '30 days'`);
    const res = await this.ds.query(`DELETE FROM "console_sessions" WHERE "expires_at" < now() RETURNING "id_hash"`);
    const rows = returnedRows(res);
    return rows.length;
  }
}
