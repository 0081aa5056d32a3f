"""A real MCP client (the official Python SDK) against `prospect mcp` over stdio (issue 36).

Run by tests/mcp.rs: argv[1] is the prospect binary; the environment holds the HOME and data
directory of a fresh store (no token: the embedded sandbox). Each check prints one line; the
first failure raises, and the exit code is non-zero.
"""
import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

AUSTRIA = {"companiesFilters": {"primaryLocations": {"includeCountries": ["at"]}}}


def check(ok, what):
    if not ok:
        raise AssertionError(what)
    print("ok:", what.split("\n")[0], flush=True)


def answer(result):
    """The structured answer of a paid tool."""
    check(not result.is_error, f"the tool call succeeded: {result.content}")
    return result.structured_content


async def standard(session):
    r = await session.call_tool("credits", {})
    b = json.loads(r.content[0].text)
    c = b["credits"]
    return c["oneTime"] + c["recurrent"]


async def main():
    binary = sys.argv[1]
    params = StdioServerParameters(
        command=binary, args=["mcp", "--max-credits", "20"], env=dict(os.environ)
    )
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            tools = {t.name: t for t in (await session.list_tools()).tools}
            for name in [
                "credits", "reference_data", "search_companies", "search_people",
                "lookup_companies", "lookup_people", "enrich_company", "reveal_emails",
                "reveal_phones", "lists", "list_add", "suppression_check", "history",
            ]:
                check(name in tools, f"tool {name} is listed")
            check(tools["credits"].annotations.read_only_hint is True, "credits is read-only")
            s = tools["search_companies"]
            check(s.annotations.open_world_hint is True, "a paid tool is open-world")
            check(s.output_schema is not None, "a paid tool has an output schema")
            check("0.2 standard credits per result" in s.description, "its price is in its description")
            check(tools["list_add"].annotations.destructive_hint is True, "list writes say so")

            start = await standard(session)
            # 100 results may cost 20 credits, above confirm_above (10): a plan, nothing sent.
            args = {"filters": AUSTRIA, "limit": 100}
            a = answer(await session.call_tool("search_companies", args))
            check(a["status"] == "needs_confirmation" and a["planId"], f"planned first: {a['message']}")
            check(a["plan"]["toBuy"] == 100 and a["plan"]["cost"]["standard"] == 20, "the plan says 100 for 20")
            check(await standard(session) == start, "nothing was spent for the plan")

            # Confirmed with its plan id: it runs, with progress.
            seen = []

            async def on_progress(progress, total, message):
                seen.append(progress)

            a = answer(await session.call_tool(
                "search_companies", {**args, "plan_id": a["planId"]}, progress_callback=on_progress
            ))
            check(a["status"] == "done", f"confirmed, it ran: {a['message']}")
            n = len(a["rows"])
            check(50 < n <= 100 and a["bought"] == n, f"{n} companies bought")
            check(abs(a["spent"]["standard"] - 0.2 * n) < 1e-6, "charged 0.2 a result")
            check(abs(a["sessionLeft"]["standard"] - (20 - 0.2 * n)) < 1e-6, "the session's budget says what is left")
            check(abs(start - await standard(session) - 0.2 * n) < 1e-6, "the balance fell by exactly that")
            check(len(seen) > 0, "progress was reported")
            row = a["rows"][0]
            check(set(row) <= {"domain", "name", "country", "industry", "size", "employees"}, f"rows are compact: {sorted(row)}")

            # Asked again: owned, 0 credits, no confirmation needed.
            a = answer(await session.call_tool("search_companies", {**args, "max_credits": 30}))
            check(a["status"] == "done" and a["owned"] == n and a["spent"]["standard"] == 0, "owned at 0 credits")

            # fields selects more of the record.
            a = answer(await session.call_tool("lookup_companies", {"domains": [row["domain"]], "fields": ["countries"]}))
            check(a["status"] == "done" and a["owned"] == 1, f"a lookup of an owned company is free: {a['message']}")
            check("countries" in a["rows"][0]["extra"], "fields adds members")

            # The session may not spend past --max-credits, whatever the agent confirms.
            before = await standard(session)
            big = {"filters": {"companiesFilters": {"primaryLocations": {"includeCountries": ["ch"]}}}, "limit": 100}
            a = answer(await session.call_tool("search_companies", {**big, "max_credits": 1000}))
            check(a["status"] == "refused" and "--max-credits" in a["message"], f"over the session cap: {a['message']}")
            check(await standard(session) == before, "nothing was spent past the cap")

            # The full record at 0 credits.
            r = await session.read_resource(f"prospect://company/{row['domain']}")
            rec = json.loads(r.contents[0].text)
            check(rec["domain"] == row["domain"], "a company resource is its full record")

            # People, then a reveal awaited through the receiver (email credits are their own pool).
            a = answer(await session.call_tool("search_people", {"filters": AUSTRIA, "limit": 2}))
            check(a["status"] == "done" and len(a["rows"]) == 2, f"two people: {a['message']}")
            ids = [p["id"] for p in a["rows"]]
            a = answer(await session.call_tool("reveal_emails", {"person_ids": ids, "wait_seconds": 60}))
            check(a["status"] == "done", f"the reveal arrived: {a['message']}")
            check({c["personId"] for c in a["rows"]} == set(ids), "a contact for each")
            a = answer(await session.call_tool("reveal_emails", {"person_ids": ids}))
            check(a["spent"]["email"] == 0 and all(c["fromStore"] for c in a["rows"]), "revealed again: from the store, 0 credits")
    print("all checks passed", flush=True)


asyncio.run(main())
