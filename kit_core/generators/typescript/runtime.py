"""The fixed part of `client.ts`: options, the error base classes and the request helpers.

Kept in one string (no design-dependent text) so that the generated part stays short and the
rules of the wire live in one place:
* query parameters and multipart text parts: one entry per array item (the server reads
  every value of a name); header arrays: the items joined with `, ` (the server splits on
  commas); cookies: one `Cookie` header (`name=value; ...`), which browsers refuse to set
  from script - there the browser's own cookies are sent;
* path values are percent-encoded (a `{rest...}` wildcard keeps its slashes);
* numbers are written with `String()`, booleans as `true`/`false`, as the server parses them;
* a response or error header field is read back from the header (array items split on commas),
  a cookie field from `Set-Cookie` (readable in Node, hidden from browser scripts).
"""

RUNTIME = r"""
/** How the client reaches the server. */
export interface ClientOptions {
  /** Scheme, host and port of the server (`http://localhost:8080`); routes carry `openapi.basePath`. */
  baseUrl: string;
  /** The fetch to call; the global `fetch` when absent. */
  fetch?: typeof fetch;
  /** Headers sent with every call (`Authorization`, for example); a call's own headers win. */
  headers?: Record<string, string>;
  /** Values of the `{variables}` of `openapi.basePath`. */
  basePathVars?: Record<string, string>;
}

/** Per-call options. */
export interface CallOptions {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

/** An answer other than the method's success status. */
export class ApiError<B = unknown> extends Error {
  readonly status: number;
  readonly body: B;
  readonly response: Response;

  constructor(name: string, message: string, status: number, body: B, response: Response) {
    super(message);
    Object.setPrototypeOf(this, new.target.prototype); // instanceof, whatever the compile target
    this.name = name;
    this.status = status;
    this.body = body;
    this.response = response;
  }
}

/** An error the framework answers itself (`{message}`): validation (400), unknown route
 * (404), body limits (413), an unknown error or a panic (500), a deadline (504), or any
 * answer that matches none of the method's declared errors. */
export class KitError extends ApiError<{ message: string }> {
  constructor(status: number, message: string, response: Response) {
    super("KitError", message, status, { message }, response);
  }
}

type Value = string | number | boolean | Blob | null | undefined;
type Pairs = ReadonlyArray<readonly [string, Value | readonly Value[]]>;
/** A header or cookie field read back: [property, wire name, "header" | "cookie", "s" | "n" | "b", array]. */
type Bound = ReadonlyArray<readonly [string, string, "header" | "cookie", "s" | "n" | "b", boolean]>;

/** A declared error: its class and what tells its body apart. */
export interface ErrorClass {
  new (body: any, response: Response): ApiError;
  /** The HTTP status it is answered with. */
  readonly status: number;
  /** Its `code` (sent in the body of an error without body fields). */
  readonly code: string;
  /** The JSON keys of its body; null when it declares none (the body is `{code, message}`). */
  readonly keys: readonly string[] | null;
  readonly bound: Bound;
}

interface Outgoing {
  query?: Pairs;
  headers?: Pairs;
  cookies?: Pairs;
  json?: unknown;
  form?: Pairs;
}

function text(v: string | number | boolean): string {
  return typeof v === "string" ? v : String(v);
}

function each(v: Value | readonly Value[]): Value[] {
  return Array.isArray(v) ? [...v] : [v as Value];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A path value, percent-encoded; a wildcard keeps its slashes. */
export function pathValue(v: string | number | boolean, wildcard = false): string {
  const s = text(v);
  return wildcard ? s.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(s);
}

/** The members of an object with the given keys that are set (undefined members are left out). */
export function pick(req: object, keys: readonly string[]): Record<string, unknown> {
  const src = req as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (src[k] !== undefined) out[k] = src[k];
  }
  return out;
}

function readValue(raw: string, kind: "s" | "n" | "b"): string | number | boolean {
  if (kind === "n") return Number(raw);
  if (kind === "b") return raw.toLowerCase() === "true" || raw === "1" || raw.toLowerCase() === "t";
  return raw;
}

function setCookies(res: Response): string[] {
  const headers = res.headers as Headers & { getSetCookie?: () => string[] };
  if (typeof headers.getSetCookie === "function") return headers.getSetCookie();
  const one = res.headers.get("set-cookie");
  return one ? [one] : [];
}

function cookie(res: Response, name: string): string | undefined {
  for (const line of setCookies(res)) {
    const pair = line.split(";", 1)[0] ?? "";
    const eq = pair.indexOf("=");
    if (eq > 0 && pair.slice(0, eq).trim() === name) {
      const v = pair.slice(eq + 1).trim();
      return v.length >= 2 && v.startsWith('"') && v.endsWith('"') ? v.slice(1, -1) : v;
    }
  }
  return undefined;
}

/** Sets the header and cookie fields of a response or error body from the response. */
export function readBound(res: Response, target: object, bound: Bound): void {
  const out = target as Record<string, unknown>;
  for (const [key, wire, where, kind, list] of bound) {
    const raw = where === "header" ? res.headers.get(wire) : cookie(res, wire);
    if (raw === null || raw === undefined) continue;
    out[key] = list
      ? raw.split(",").map((s) => s.trim()).filter((s) => s !== "").map((s) => readValue(s, kind))
      : readValue(raw, kind);
  }
}

async function readJson(res: Response): Promise<{ raw: string; data: unknown }> {
  const raw = await res.text();
  try {
    return { raw, data: raw === "" ? undefined : JSON.parse(raw) };
  } catch {
    return { raw, data: undefined };
  }
}

/** The JSON body of a success answer. */
export async function body<R>(res: Response): Promise<R> {
  return (await readJson(res)).data as R;
}

/** The error of an answer other than the success status: the first declared error of that
 * status whose body it is (an error without body fields by its `code`, one with body fields
 * when every key of the body is one of its keys), else a KitError. */
export async function failure(res: Response, declared: readonly ErrorClass[]): Promise<ApiError> {
  const { raw, data } = await readJson(res);
  if (isObject(data)) {
    for (const E of declared) {
      if (E.status !== res.status) continue;
      const keys = E.keys;
      const match = keys === null ? data["code"] === E.code : Object.keys(data).every((k) => keys.includes(k));
      if (match) {
        const body: Record<string, unknown> = keys === null ? {} : { ...data };
        readBound(res, body, E.bound);
        const err = new E(body, res);
        if (keys === null && typeof data["message"] === "string") err.message = data["message"];
        return err;
      }
    }
  }
  const message = isObject(data) && typeof data["message"] === "string" ? data["message"] : raw || res.statusText;
  return new KitError(res.status, message, res);
}

/** Sends one call: the route (already holding its path values), then the bindings. */
export class Transport {
  private readonly options: ClientOptions;

  constructor(options: ClientOptions) {
    this.options = options;
  }

  basePathVar(name: string): string {
    return pathValue(this.options.basePathVars?.[name] ?? name);
  }

  async send(verb: string, route: string, req: Outgoing, call?: CallOptions): Promise<Response> {
    let url = this.options.baseUrl.replace(/\/+$/, "") + route;
    const query = new URLSearchParams();
    for (const [name, v] of req.query ?? []) {
      for (const x of each(v)) {
        if (x !== undefined && x !== null && !(x instanceof Blob)) query.append(name, text(x));
      }
    }
    const qs = query.toString();
    if (qs !== "") url += "?" + qs;
    const headers = new Headers(this.options.headers ?? {});
    for (const [name, v] of req.headers ?? []) {
      const items = each(v).filter(
        (x): x is string | number | boolean => x !== undefined && x !== null && !(x instanceof Blob),
      );
      if (items.length > 0) headers.set(name, items.map(text).join(", "));
    }
    const cookies: string[] = [];
    for (const [name, v] of req.cookies ?? []) {
      const one = v as Value;
      if (one !== undefined && one !== null && !(one instanceof Blob)) cookies.push(`${name}=${text(one)}`);
    }
    if (cookies.length > 0) headers.set("Cookie", cookies.join("; "));
    let payload: string | FormData | undefined;
    if (req.form !== undefined) {
      const form = new FormData();
      for (const [name, v] of req.form) {
        for (const x of each(v)) {
          if (x instanceof Blob) form.append(name, x);
          else if (x !== undefined && x !== null) form.append(name, text(x));
        }
      }
      payload = form; // fetch writes the multipart Content-Type with its boundary
    } else if (req.json !== undefined) {
      payload = JSON.stringify(req.json);
      headers.set("Content-Type", "application/json");
    }
    for (const [name, v] of Object.entries(call?.headers ?? {})) headers.set(name, v);
    const doFetch = this.options.fetch ?? fetch;
    const init: RequestInit = { method: verb, headers };
    if (payload !== undefined) init.body = payload;
    if (call?.signal !== undefined) init.signal = call.signal;
    return doFetch(url, init);
  }
}
"""
