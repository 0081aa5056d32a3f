"""A real MCP client (the official Python SDK) against `prospect mcp` (issue 36).

Run by tests/mcp.rs: argv[1] is the prospect binary, argv[2] a scratch directory. Each server
runs on the embedded sandbox (no token) with a fresh HOME unless said. Each check prints one
line; the first failure raises and the exit code is non-zero.
"""
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time

import mcp_types as types
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

BINARY = sys.argv[1]
SCRATCH = sys.argv[2]
AUSTRIA = {"companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}}
CALLED = set()


def check(ok, what):
    if not ok:
        raise AssertionError(what)
    print("ok:", what.split("\n")[0], flush=True)


def home(name):
    d = os.path.join(SCRATCH, name)
    os.makedirs(d, exist_ok=True)
    env = {"PATH": os.environ.get("PATH", ""), "HOME": d,
           "XDG_CONFIG_HOME": os.path.join(d, ".config"), "XDG_DATA_HOME": os.path.join(d, ".local/share")}
    return env


def server(env, *args):
    return stdio_client(StdioServerParameters(command=BINARY, args=["mcp", *args], env=env))


async def call(session, name, args, **kw):
    CALLED.add(name)
    return await session.call_tool(name, args, **kw)


async def paid(session, name, args, **kw):
    """The structured answer of a paid tool."""
    r = await call(session, name, args, **kw)
    if r.is_error:
        raise AssertionError(f"{name} failed: {r.content}")
    return r.structured_content


async def free(session, name, args):
    r = await call(session, name, args)
    if r.is_error:
        raise AssertionError(f"{name} failed: {r.content}")
    return json.loads(r.content[0].text)


async def standard(session):
    b = await free(session, "credits", {})
    return b["credits"]["oneTime"] + b["credits"]["recurrent"]


async def every_tool():
    """One session, --max-credits 30: the tools listed with their annotations, the plan and
    its confirmation, owned answers at 0, the cap, resources, progress, and every tool once."""
    env = home("a")
    sets = os.path.join(env["XDG_CONFIG_HOME"], "prospect", "filters")
    os.makedirs(sets, exist_ok=True)
    with open(os.path.join(sets, "austria.json"), "w") as f:
        json.dump({"endpoint": "/v3/search/companies", **AUSTRIA}, f)
    async with server(env, "--max-credits", "30") as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        tools = {t.name: t for t in (await s.list_tools()).tools}
        check(tools["credits"].annotations.read_only_hint is True, "credits is read-only")
        t = tools["search_companies"]
        check(t.annotations.open_world_hint is True and t.output_schema is not None, "a paid tool is open-world with an output schema")
        check("0.2 standard credits per result" in t.description, "its price is in its description")
        f = t.input_schema["properties"]["filters"]
        check("excludeDomains" in json.dumps(f["properties"]["companiesFilters"]), "the filters' schema is the wire's (openapi.json)")
        size = len(json.dumps([x.model_dump(mode="json") for x in tools.values()]))
        print(f"figure: tools/list is {size} bytes", flush=True)
        check(tools["list_add"].annotations.destructive_hint is True and tools["suppress"].annotations.destructive_hint is True, "list and suppression writes say so")
        check(not any(tools[n].annotations.destructive_hint for n in tools if n not in ("list_add", "suppress")), "nothing else is destructive")
        templates = (await s.list_resource_templates()).resource_templates
        check({t.uri_template for t in templates} >= {"prospect://company/{domain}", "prospect://person/{id}"}, "the record templates are listed")

        start = await standard(s)
        args = {"filters": AUSTRIA, "limit": 100}
        a = await paid(s, "search_companies", args)
        check(a["status"] == "needs_confirmation" and a["planId"], f"planned first: {a['message']}")
        check(a["plan"]["toBuy"] == 100 and a["plan"]["cost"]["standard"] == 20, "the plan says 100 for 20")
        check(await standard(s) == start, "nothing was spent for the plan")
        seen = []

        async def on_progress(progress, total, message):
            seen.append(progress)

        a = await paid(s, "search_companies", {**args, "plan_id": a["planId"]}, progress_callback=on_progress)
        n = len(a["rows"])
        check(a["status"] == "done" and 50 < n <= 100 and a["bought"] == n, f"confirmed, {n} bought: {a['message']}")
        check(abs(a["spent"]["standard"] - 0.2 * n) < 1e-6 and abs(start - await standard(s) - 0.2 * n) < 1e-6, "charged 0.2 a result, as the balance says")
        check(abs(a["sessionLeft"]["standard"] - (30 - 0.2 * n)) < 1e-6, "the answer says what is left of the session")
        check(len(seen) > 0, "progress was reported")
        row = a["rows"][0]
        austrians = [c["domain"] for c in a["rows"]]
        check(set(row) <= {"domain", "name", "country", "industry", "size", "employees"}, f"rows are compact: {sorted(row)}")
        a = await paid(s, "search_companies", {**args, "max_credits": 30})
        check(a["status"] == "done" and a["owned"] == n and a["spent"]["standard"] == 0, "asked again: owned, 0 credits")
        a = await paid(s, "search_companies", {"set": "austria", "limit": 100})
        check(a["status"] == "done" and a["owned"] == n and a["spent"]["standard"] == 0, f"the saved set's search is the same search: owned: {a['message']}")

        fixed = {r.uri for r in (await s.list_resources()).resources}
        check(fixed == {"prospect://sets", "prospect://lists", "prospect://segmentations", "prospect://history"}, f"resources: {fixed}")
        got = json.loads((await s.read_resource("prospect://sets")).contents[0].text)
        check("austria" in got, "the saved sets are a resource")
        for uri in ["prospect://sets/austria", "prospect://lists", "prospect://segmentations", "prospect://history"]:
            json.loads((await s.read_resource(uri)).contents[0].text)
        check(True, "every resource reads as JSON")
        prompts = {p.name for p in (await s.list_prompts()).prompts}
        check(prompts == {"lookalikes_of_my_customers", "refresh_list_contacts"}, f"two prompts: {prompts}")
        pr = await s.get_prompt("lookalikes_of_my_customers", {"customers": "stripe.com, shopify.com"})
        check("needs_confirmation" in pr.messages[0].content.text, "the prompt asks for the cheap order")
        pr = await s.get_prompt("refresh_list_contacts", {"list": "mine"})
        check("reveal_emails" in pr.messages[0].content.text, "the refresh prompt reveals only what is missing")

        a = await paid(s, "lookup_companies", {"domains": [row["domain"]], "fields": ["countries"]})
        check(a["status"] == "done" and a["owned"] == 1 and "countries" in a["rows"][0]["extra"], "a lookup of an owned company is free; fields adds members")
        rec = json.loads((await s.read_resource(f"prospect://company/{row['domain']}")).contents[0].text)
        check(rec["domain"] == row["domain"] and "description" in rec, "the company resource is its full record")

        before = await standard(s)
        big = {"filters": {"companiesFilters": {"primaryLocations": {"includeCountries": ["ch"]}}}, "limit": 100, "max_credits": 1000}
        a = await paid(s, "search_companies", big)
        check(a["status"] == "needs_confirmation" and "--max-credits" in a["message"] and "results fit" in a["message"], f"over the session cap: a plan of what fits: {a['message']}")
        check(await standard(s) == before, "nothing was spent past the cap")

        # Suppressed: refused at 0 credits.
        suppressed = "swarovski.com"
        await free(s, "suppress", {"category": "customers", "domains": [suppressed]})
        hit = await free(s, "suppression_check", {"keys": [suppressed, "example.org"]})
        check(hit == {suppressed: "customers"}, f"the check names the category: {hit}")
        a = await paid(s, "lookup_companies", {"domains": [suppressed]})
        check(a["status"] == "refused" and a["spent"]["standard"] == 0, f"a suppressed domain is refused at 0 credits: {a['message']}")

        people = await paid(s, "search_people", {"filters": AUSTRIA, "limit": 2})
        check(people["status"] == "done" and len(people["rows"]) == 2, f"two people: {people['message']}")
        ids = [p["id"] for p in people["rows"]]
        rec = json.loads((await s.read_resource(f"prospect://person/{ids[0]}")).contents[0].text)
        check(rec["id"] == ids[0], "the person resource is its full record")
        a = await paid(s, "reveal_emails", {"person_ids": ids, "wait_seconds": 60})
        check(a["status"] == "done" and {c["personId"] for c in a["rows"]} == set(ids), f"the reveal was awaited: {a['message']}")
        email_spent = a["spent"]["email"]
        a = await paid(s, "reveal_emails", {"person_ids": ids})
        check(a["spent"]["email"] == 0 and all(c["fromStore"] for c in a["rows"]), f"charged once ({email_spent} email credits): again from the store")
        a = await paid(s, "reveal_phones", {"person_ids": ids[:1], "wait_seconds": 60})
        check(a["status"] == "done", f"phones: {a['message']}")
        handle = people["rows"][0]["linkedinUrl"]
        a = await paid(s, "lookup_people", {"keys": [handle]})
        check(a["status"] == "done" and a["owned"] == 1, f"a person looked up: {a['message']}")

        # Every other tool once.
        await free(s, "reference_data", {})
        sug = await free(s, "autocomplete", {"kind": "job_titles", "query": "head of sal"})
        check(sug["spent"]["standard"] == 0.1, "an autocomplete costs 0.1")
        a = await paid(s, "enrich_company", {"domain": row["domain"]})
        check(a["status"] == "done", f"enrich company: {a['message']}")
        a = await paid(s, "enrich_person", {"person": {"id": ids[1]}, "max_credits": 30})
        check(a["status"] in ("done", "needs_confirmation"), f"enrich person: {a['message']}")
        a = await paid(s, "enrich_companies", {"domains": [row["domain"]], "wait_seconds": 30})
        check(a["status"] == "done" and a["owned"] == 1, f"a batch enrich of an owned company is free: {a['message']}")
        seg = await paid(s, "segmentation_create", {"domains": austrians[:5]})
        check(seg["status"] == "done" and seg["rows"], f"a segmentation: {seg['message']}")
        sid = seg["rows"][0]
        for _ in range(60):
            got = await free(s, "segmentation_read", {"id": sid})
            if got.get("status") == "SUCCESSFUL":
                break
            await asyncio.sleep(0.5)
        check(got.get("status") == "SUCCESSFUL", f"the segmentation is ready: {got.get('status')}")
        await free(s, "segmentation_mark", {"id": sid, "domains": [row["domain"]], "mark": "positive"})
        await free(s, "segmentation_attribute", {"id": sid, "domains": [row["domain"]]})
        await free(s, "warmup", {"domains": ["brandnew-gmbh.at"]})
        await free(s, "list_add", {"name": "mcp-accounts", "kind": "accounts", "keys": [row["domain"]]})
        lists = await free(s, "lists", {})
        check(any(l["name"] == "mcp-accounts" for l in lists["lists"]), "the list is listed")
        members = await free(s, "lists", {"name": "mcp-accounts"})
        check(members[0]["domain"] == row["domain"], "its members are records")
        hist = await free(s, "history", {"limit": 5})
        check(len(hist) > 0, "the history lists searches")
        bought = json.loads((await s.read_resource(f"prospect://search/{hist[-1]['id']}")).contents[0].text)
        check(len(bought["rows"]) > 0 and bought["endpoint"].startswith("/v3/search/"), "a search bought is a resource, its rows at 0 credits")
        owned = await free(s, "export_owned", {"kind": "companies", "limit": 10})
        check(len(owned) == 10, "what is owned exports at 0 credits")
        check(CALLED >= set(tools), f"every tool was called: {sorted(set(tools) - CALLED)}")
        b = await standard(s)
        check(start - b <= 30 + 1e-6, f"the session spent {start - b:.2f} of its 30")


async def cap_and_size():
    """--max-credits 10: a 100-company search gets a plan and spends nothing; called again with
    its plan id and a budget that fits, it buys the first results that fit; the same call again
    spends 0; a 25-row answer is small."""
    async with server(home("b"), "--max-credits", "10") as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        start = await standard(s)
        args = {"filters": AUSTRIA, "limit": 100, "max_credits": 100}
        a = await paid(s, "search_companies", args)
        check(a["status"] == "needs_confirmation" and a["plan"]["toBuy"] == 100 and a["planId"], f"a 100-company search: a plan: {a['message']}")
        check("The first 50 results fit" in a["message"], "it says how many results fit in the 10 credits left")
        check(await standard(s) == start, "it spent nothing")
        a = await paid(s, "search_companies", {**args, "plan_id": a["planId"], "max_credits": 10})
        check(a["status"] == "done" and a["bought"] == 50 and a["spent"]["standard"] == 10, f"again with the plan id and a budget of 10: the first 50 bought: {a['message']}")
        check(abs(start - await standard(s) - 10) < 1e-6 and a["sessionLeft"]["standard"] == 0, "the balance fell by 10; the session has 0 left")
        a = await paid(s, "search_companies", {"filters": AUSTRIA, "limit": 50})
        check(a["status"] == "done" and a["owned"] == 50 and a["spent"]["standard"] == 0, "the same 50 again: owned, 0 credits")
        r25 = await call(s, "search_companies", {"filters": AUSTRIA, "limit": 25})
        a = r25.structured_content
        size = len(r25.content[0].text.encode())
        print(f"figure: a 25-row company search answers {size} bytes of text", flush=True)
        check(a["status"] == "done" and len(a["rows"]) == 25 and size <= 6 * 1024, f"25 rows in {size} bytes (at most 6 KB)")
        a = await paid(s, "search_companies", {"filters": AUSTRIA, "limit": 51})
        check(a["status"] != "done" and abs(start - await standard(s) - 10) < 1e-6, "one result more is not bought: the session is spent")


async def never_past_the_cap():
    """--max-credits 10: random sequences of calls (searches, confirmations with random budgets,
    autocompletes, some at once) never spend past 10 in all; three seeds, a fresh session each."""
    async with server(home("b-at-once"), "--max-credits", "10") as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        start = await standard(s)
        asks = [{"filters": {"companiesFilters": {"primaryLocations": {"includeCountries": [c]}}}, "limit": 40, "max_credits": 50}
                for c in ("de", "fr")]
        a, b = await asyncio.gather(*[paid(s, "search_companies", x) for x in asks])
        check(sorted([a["status"], b["status"]]) == ["done", "needs_confirmation"], f"two 8-credit searches at once under a cap of 10: one runs ({a['status']}, {b['status']})")
        check(abs(start - await standard(s) - 8) < 1e-6, "8 spent, not 16")
    for seed in (7, 11, 23):
        async with server(home(f"b{seed}"), "--max-credits", "10") as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            start = await standard(s)
            rng = random.Random(seed)
            countries = ["de", "fr", "it", "es", "nl", "se", "ch", "at", "us", "gb"]

            def draw():
                """One call's arguments, drawn before the calls of a round run (the draws do
                not depend on which call the event loop runs first)."""
                c = rng.choice(countries)
                if rng.random() < 0.15:
                    return ("autocomplete", {"kind": "industries", "query": c}, None)
                args = {"filters": {"companiesFilters": {"primaryLocations": {"includeCountries": [c]}}},
                        "limit": rng.choice([1, 2, 5, 10, 20, 40, 100]), "max_credits": rng.choice([1, 2, 5, 10, 50])}
                confirm = rng.choice([0, 1, 2, 5, 10, 50]) if rng.random() < 0.8 else None
                return ("search_companies", args, confirm)

            async def one(name, args, confirm):
                if name == "autocomplete":
                    await call(s, name, args)
                    return
                a = await paid(s, name, args)
                if a["status"] == "needs_confirmation" and confirm is not None:
                    await paid(s, name, {**args, "plan_id": a["planId"], "max_credits": confirm})

            for round in range(15):
                calls = [draw() for _ in range(rng.choice([1, 1, 2, 3]))]
                await asyncio.gather(*[one(*c) for c in calls])
                spent = start - await standard(s)
                check(spent <= 10 + 1e-6, f"seed {seed}, round {round}: the session spent {spent:.2f} (at most 10)")
            check(spent > 5, f"seed {seed}: the calls did spend ({spent:.2f})")


async def asks_the_person():
    """A client that offers elicitation: a plan above the call's limit is put to the person;
    yes runs it, no spends nothing."""
    answers = []

    async def on_elicit(context, params):
        answers.append(params.message)
        return types.ElicitResult(action="accept", content={"run": len(answers) == 1})

    async with server(home("ask"), "--max-credits", "50") as (r, w), ClientSession(r, w, elicitation_callback=on_elicit) as s:
        await s.initialize()
        start = await standard(s)
        a = await paid(s, "search_companies", {"filters": AUSTRIA, "limit": 25, "max_credits": 1})
        check(len(answers) == 1 and "Run it?" in answers[0] and "estimated 5 credits" in answers[0], f"the person was asked: {answers}")
        check(a["status"] == "done" and a["bought"] == 25 and start - await standard(s) == 5, f"yes: it ran: {a['message']}")
        a = await paid(s, "search_companies", {"filters": AUSTRIA, "limit": 50, "max_credits": 1})
        check(len(answers) == 2 and a["status"] == "refused" and "declined" in a["message"], f"no: refused: {a['message']}")
        check(start - await standard(s) == 5, "and nothing more was spent")


async def cancel_keeps_what_was_bought():
    """A cancel during a 3,000-company search keeps what was bought; the same call again buys
    only the rest."""
    async with server(home("c"), "--max-credits", "2000") as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        start = await standard(s)
        args = {"filters": {}, "limit": 3000, "max_credits": 1000}
        progressed = asyncio.Event()

        async def on_progress(progress, total, message):
            progressed.set()

        task = asyncio.create_task(call(s, "search_companies", args, progress_callback=on_progress))
        await asyncio.wait_for(progressed.wait(), 60)
        task.cancel()
        try:
            await task
        except (asyncio.CancelledError, Exception):
            pass
        await asyncio.sleep(2)
        first = start - await standard(s)
        check(0 < first < 600, f"cancelled part-way: {first:.1f} credits bought and kept")
        a = await paid(s, "search_companies", args)
        check(a["status"] == "done" and len(a["rows"]) == 3000, f"again: done: {a['message']}")
        check(a["owned"] > 0 and a["owned"] + a["bought"] == 3000, f"it bought only the rest ({a['owned']} owned)")
        total = start - await standard(s)
        check(abs(total - 600) < 1e-6, f"3,000 results cost 600 in all ({total:.1f}): nothing paid twice")


async def two_servers_pay_once():
    """Two servers on one store asked for the same 2,000 domains at once pay once."""
    async with server(home("d0"), "--max-credits", "1000") as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        a = await paid(s, "search_companies", {"filters": {}, "limit": 2000, "max_credits": 1000})
        domains = [c["domain"] for c in a["rows"]]
    check(len(domains) == 2000, "2,000 domains known")
    env = home("d")
    # The team store (PostgreSQL) when the test names one.
    if os.environ.get("MCP_TEST_STORE_URL"):
        env["PROSPECT_STORE_URL"] = os.environ["MCP_TEST_STORE_URL"]

    async def lookup():
        async with server(env, "--max-credits", "1000") as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            return await paid(s, "lookup_companies", {"domains": domains, "max_credits": 1000})

    one, two = await asyncio.gather(lookup(), lookup())
    spent = one["spent"]["standard"] + two["spent"]["standard"]
    check(one["status"] == two["status"] == "done", f"both done: {one['message']} / {two['message']}")
    check(abs(spent - 100) < 1e-6 and one["bought"] + two["bought"] == 2000, f"paid once: {spent} credits, {one['bought']} + {two['bought']} bought")


async def over_http():
    """Streamable HTTP: the same tools."""
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    p = subprocess.Popen([BINARY, "mcp", "--listen", f"127.0.0.1:{port}"], env=home("e"),
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), 0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as streams:
            async with ClientSession(streams[0], streams[1]) as s:
                await s.initialize()
                names = {t.name for t in (await s.list_tools()).tools}
                check("search_companies" in names, "tools listed over Streamable HTTP")
                a = await paid(s, "search_companies", {"filters": AUSTRIA, "limit": 5})
                check(a["status"] == "done" and len(a["rows"]) == 5, "a search over Streamable HTTP")
    finally:
        p.terminate()
        p.wait(10)


async def readme_config():
    """The README's `mcpServers` config, as written: its command found on PATH (the binary's
    directory first), its args and env, on the embedded sandbox."""
    readme = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "README.md")
    text = open(readme).read()
    blocks = [b.split("```", 1)[0] for b in text.split("```json")[1:]]
    config = json.loads(next(b for b in blocks if "mcpServers" in b))
    entry = config["mcpServers"]["prospect"]
    env = home("readme")
    env["PATH"] = os.path.dirname(BINARY) + os.pathsep + env["PATH"]
    env.update(entry.get("env", {}))
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        names = {t.name for t in (await s.list_tools()).tools}
        check({"search_companies", "reveal_emails", "credits"} <= names, f"the README's config starts the server: {len(names)} tools")
        start = await standard(s)
        a = await paid(s, "search_companies", {"filters": AUSTRIA, "limit": 5})
        check(a["status"] == "done" and len(a["rows"]) == 5 and abs(start - await standard(s) - 1) < 1e-6, f"and a search runs on the sandbox: {a['message']}")


async def main():
    which = sys.argv[3] if len(sys.argv) > 3 else "all"
    runs = {"every_tool": every_tool, "cap_and_size": cap_and_size, "never_past_the_cap": never_past_the_cap,
            "asks_the_person": asks_the_person, "readme_config": readme_config, "cancel": cancel_keeps_what_was_bought,
            "two_servers": two_servers_pay_once, "http": over_http}
    for name, run in runs.items():
        if which in ("all", name):
            await run()
    print("all checks passed", flush=True)


asyncio.run(main())
