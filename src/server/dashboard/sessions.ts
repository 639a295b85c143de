import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** What the server remembers of one logged-in browser. */
export interface Session {
  readonly csrfToken: string;
  lastSeen: number;
  /** Shown by the next page and then forgotten: a notice, or a new key's plain text (once). */
  flash?: Flash;
}

export interface Flash {
  readonly kind: "ok" | "error";
  readonly lines: readonly string[];
  /** A key just created: the one time it is ever shown. */
  readonly key?: { readonly id: string; readonly plain: string };
}

export interface SessionOptions {
  /** A session unused this long is gone (default 30 minutes). */
  readonly idleMs?: number;
  /** Sessions kept at most; the least recently used goes first (default 32). */
  readonly maxSessions?: number;
  /** Milliseconds clock; injectable for tests. */
  readonly clock?: () => number;
}

/** 32 random bytes, base64url: the login token, session ids and CSRF tokens alike. */
export const randomToken = () => randomBytes(32).toString("base64url");

// Compared and looked up by digest: equal-length inputs for timingSafeEqual whatever was sent,
// and a Map lookup that leaks nothing useful about a stored id through its timing.
const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
const digestKey = (value: string) => digest(value).toString("hex");

/**
 * The one-time login token and the sessions it is exchanged for. The token works once: it is
 * cleared on use, and `issueLoginToken` makes a new one (printed only on the terminal).
 */
export function createSessions(options: SessionOptions = {}) {
  const { idleMs = 30 * 60_000, maxSessions = 32, clock = Date.now } = options;
  const sessions = new Map<string, Session>();
  let loginDigest: Buffer | undefined;

  const live = (key: string): Session | undefined => {
    const session = sessions.get(key);
    if (!session) return undefined;
    if (clock() - session.lastSeen > idleMs) {
      sessions.delete(key);
      return undefined;
    }
    return session;
  };

  return {
    issueLoginToken(): string {
      const token = randomToken();
      loginDigest = digest(token);
      return token;
    },
    /** Exchanges the login token for a new session id; undefined when wrong or used already. */
    login(token: string): { id: string; session: Session } | undefined {
      const presented = digest(token);
      if (!loginDigest || !timingSafeEqual(presented, loginDigest)) return undefined;
      loginDigest = undefined;
      const id = randomToken();
      const session: Session = { csrfToken: randomToken(), lastSeen: clock() };
      if (sessions.size >= maxSessions) sessions.delete(sessions.keys().next().value as string);
      sessions.set(digestKey(id), session);
      return { id, session };
    },
    /** The live session for this id, its idle timer restarted; undefined when unknown or expired. */
    touch(id: string | undefined): Session | undefined {
      if (!id) return undefined;
      const key = digestKey(id);
      const session = live(key);
      if (!session) return undefined;
      session.lastSeen = clock();
      // Re-inserted so that the Map's order is least recently used first.
      sessions.delete(key);
      sessions.set(key, session);
      return session;
    },
    logout(id: string | undefined): void {
      if (id) sessions.delete(digestKey(id));
    },
  };
}

export type Sessions = ReturnType<typeof createSessions>;

/** Constant-time equality of two secrets of any length. */
export const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));
