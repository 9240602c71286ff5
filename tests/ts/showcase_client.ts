// Drives the generated TypeScript client against the running showcase server: every method,
// declared errors as their classes, framework errors as KitError, a multipart upload.
// Compiled with `tsc --strict` next to the generated `api/` folder, run by Node 20
// (tests/e2e/test_ts_client.py); it prints `ok <calls>` and exits 0 when every check holds.
import { ApiError, KitError, createClient, Broken, Clash, ItemMissing, Throttled } from "./api/client.js";
import type { Forms, Order } from "./api/types.js";

declare const process: { argv: string[]; exitCode: number };

let calls = 0;
function check(ok: boolean, what: string, got?: unknown): void {
  calls++;
  if (!ok) throw new Error(`${what}: got ${JSON.stringify(got)}`);
}

function same(got: unknown, want: unknown, what: string): void {
  check(JSON.stringify(got) === JSON.stringify(want), `${what} (want ${JSON.stringify(want)})`, got);
}

async function refused<E extends ApiError>(call: Promise<unknown>, cls: abstract new (...a: never[]) => E, what: string): Promise<E> {
  try {
    await call;
  } catch (err) {
    check(err instanceof cls, `${what}: error class`, err instanceof Error ? `${err.name}: ${err.message}` : err);
    check(err instanceof ApiError && err instanceof Error, `${what}: an ApiError and an Error`);
    return err as E;
  }
  throw new Error(`${what}: no error`);
}

async function main(base: string): Promise<void> {
  const client = createClient({ baseUrl: base, headers: { Authorization: "Bearer t" } });
  const anon = createClient({ baseUrl: base });

  // ---- JSON bodies
  same((await client.check({ name: "abc", level: 2, tint: "green", raw: "AQI=" })).tint, "green", "check");
  const bad = await refused(client.check({ name: "x" }), KitError, "check validation");
  same([bad.status, bad.message], [400, "name: length out of range [2, 5]"], "validation 400");
  const forms: Forms = {
    headline: "h", count: 1, nick: null, tags: ["t"], grid: [[1, 2]], attrs: { a: "b" },
    scores: { x: null, y: 2 }, nested: {}, data: "aGk=", price: { amount: 9007199254740991, currency: "USD" },
    page: { items: [], more: false }, payload: { k: [1] }, createdBy: "me", createdAt: "2024-01-02T03:04:05.123456Z",
  };
  const echoed = await client.forms(forms);
  same([echoed.headline, echoed.color, echoed.priority, echoed.labels, echoed.nick], ["h", "red", 1, ["a", "b"], null], "forms defaults");
  same([echoed.scores, echoed.grid, echoed.data, echoed.createdAt], [{ x: null, y: 2 }, [[1, 2]], "aGk=", "2024-01-02T03:04:05.123456Z"], "forms forms");
  same(echoed.price.amount, 9007199254740991, "int64 up to 2^53 - 1 is exact");
  check(!("secret" in echoed), "sensitive field not sent back", echoed);
  same((await client.contact({ name: "n", phone: "+12025550123" })).phone, "+12025550123", "contact");
  const mutex = await refused(client.contact({ name: "n" }), KitError, "requiresOneOf");
  same(mutex.status, 400, "requiresOneOf status");
  const opt = await client.options({ nick: null, list: ["a"], nlist: null, m: { k: 1 }, raw: "", the_key: "v" });
  same([opt.the_key, opt.nlist, opt.name], ["v", null, undefined], "options @json and nullable");
  same(await client.accept(), { nick: null, list: [], nlist: null, m: {}, raw: "", the_key: "" }, "accept 202");
  const order: Order = {
    id: "123e4567-e89b-12d3-a456-426614174000",
    lines: [{ sku: "A1", qty: 2, price: { amount: 5, currency: "EUR" }, tags: [] }],
  };
  const placed = await client.place(order);
  same([placed.note, placed.rush, placed.source, placed.lines[0]?.color], ["none", false, "web", "green"], "place defaults");
  const boxed = await client.boxed({ value: { amount: 3, currency: "EUR" }, note: "n" });
  same(boxed.echo, { value: { amount: 3, currency: "EUR" }, note: "n" }, "generic instance");
  same(await client.generic(), { items: [], total: 0 }, "generic response");
  check(Array.isArray((await client.billed()).ids), "billed");
  await client.small({ text: "hi" });
  const big = await refused(client.small({ text: "x".repeat(100) }), KitError, "small body cap");
  same(big.status, 413, "413");

  // ---- bindings
  const bound = await client.bind(
    { id: 42, q: "a b/c?&", n: -3, f: 2.5, b: true, ids: [1, 2, 3], trace: "tr", sid: "s9", color: "blue", pr: -1, note: "nó", rate: 0.5, weight: 1.25 },
    { headers: { "X-Extra": "1" } },
  );
  same(
    [bound.id, bound.q, bound.n, bound.f, bound.b, bound.ids, bound.trace, bound.sid, bound.color, bound.pr, bound.note, bound.rate, bound.weight],
    [42, "a b/c?&", -3, 2.5, true, [1, 2, 3], "tr", "s9", "blue", -1, "nó", 0.5, 1.25],
    "every request binding",
  );
  same([bound.total, bound.tags, bound.token], [7, ["a", "b"], "tok"], "response header, header list and cookie");
  const unauth = await refused(anon.bind({ id: 1 }), KitError, "middleware 401");
  same([unauth.status, unauth.message], [401, "unauthorized"], "401 body");
  const badInt = await refused(client.sleep({ ms: -1 }), KitError, "query validation");
  same(badInt.status, 400, "sleep 400");
  await client.sleep({ ms: 1 });
  await client.headed({ key: "k", sid: "s", level: 2 });
  same(await client.secure(), {}, "secure 204");
  await anon.ping();
  await client.gone();
  same((await client.trouble({ kind: "ok" })).value, 1.5, "trouble");
  const panic = await refused(client.trouble({ kind: "panic" }), KitError, "panic");
  same(panic.status, 500, "panic 500");
  const raw = await client.raw();
  same([raw.status, await raw.text()], [200, "raw ok"], "passthrough");

  // ---- multipart
  const file = new File(["hello"], "a.txt", { type: "text/plain" });
  const up = await client.upload({ title: "t", count: 2, file, more: [new Blob(["1"], { type: "text/plain" }), new Blob(["2"], { type: "text/plain" })], ratio: 0.5 });
  same(up, { title: "t", count: 2, name: "a.txt", size: 5, more: 2, ratio: 0.5 }, "upload");
  const tooBig = await refused(client.upload({ title: "t", file: new Blob(["x".repeat(1500)], { type: "text/plain" }) }), KitError, "upload maxSize");
  check(tooBig.status === 400 || tooBig.status === 413, "upload refused", tooBig.status);

  // ---- declared errors
  const throttled = await refused(client.fail({ kind: "throttled" }), Throttled, "throttled");
  same([throttled.status, throttled.body.retryAfter, throttled.body.session, throttled.name], [429, 30, "s1", "Throttled"], "throttled header and cookie fields");
  const missing = await refused(client.fail({ kind: "missing" }), ItemMissing, "item missing");
  same(missing.status, 404, "404 declared");
  const clash = await refused(client.fail({ kind: "clash" }), Clash, "clash");
  same([clash.status, clash.body.hint, clash.body.id], [409, "try later", undefined], "clash body");
  const broken = await refused(client.fail({ kind: "broken" }), Broken, "broken");
  same([broken.status, broken.body], [500, { detail: "d" }], "broken body without its sensitive field");
  const unknown = await refused(client.fail({ kind: "other" }), KitError, "unknown error");
  check(unknown.status === 500 && !(unknown instanceof Broken), "unknown 500 is a KitError", unknown.message);
  const deadline = await refused(client.fail({ kind: "deadline" }), KitError, "deadline");
  same(deadline.status, 504, "504");
  const nowhere = createClient({ baseUrl: base + "/nowhere" });
  const notFound = await refused(nowhere.ping(), KitError, "no route");
  same(notFound.status, 404, "framework 404 is a KitError, not ItemMissing");
}

main(process.argv[2] ?? "").then(
  () => console.log(`ok ${calls}`),
  (err: unknown) => {
    console.error(err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  },
);
