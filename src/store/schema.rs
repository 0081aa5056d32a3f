//! The schema: an ordered list of migration steps. Step `i` (0-based) takes a file from schema
//! version `i` to `i + 1`; the version is kept in `PRAGMA user_version` (0 for a new file).
//! Steps are only ever appended: a released step is never edited.
//!
//! Conventions of every table: times are unix milliseconds UTC (`INTEGER`), JSON is stored as
//! sanitized text, credits are `REAL`.

/// The migration steps, in order; `MIGRATIONS[0]` is version 1 (the initial schema).
pub(super) const MIGRATIONS: &[&str] = &[V1, V2, V3, V4, V5];

/// Version 5: company aliases (issue 16). A domain that redirects to a company's own domain
/// (the `redirectMap` of a lookup answer, a record's `redirectedFrom`) is kept as an alias of
/// it, so a company asked for by its old domain is owned, not bought again. Both are company
/// keys (`normalize_domain`).
const V5: &str = r#"
CREATE TABLE company_aliases (
    alias   TEXT NOT NULL PRIMARY KEY,
    domain  TEXT NOT NULL
) WITHOUT ROWID;
"#;

/// Version 4: suppression and lists (issue 16).
///
/// - `suppressed` holds the entities never to search, reveal or pay for, each in a category
///   (`customers`, `open-deals`, `do-not-contact`, `competitors`): `kind` is `domain` (as
///   companies are keyed), `email` (lowercase), `handle` (a professional-network handle, as
///   people are keyed) or `person` (a service id).
/// - `lists` are named account lists (members keyed by domain) and contact lists (members keyed
///   by person id); `list_members` holds their members, each with when it was added.
const V4: &str = r#"
CREATE TABLE lists (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL UNIQUE,
    kind        TEXT    NOT NULL CHECK (kind IN ('accounts', 'contacts')),
    created_at  INTEGER NOT NULL
);
CREATE TABLE list_members (
    list_id   INTEGER NOT NULL REFERENCES lists(id) ON DELETE CASCADE,
    key       TEXT    NOT NULL,          -- a domain (accounts) or a person id (contacts)
    added_at  INTEGER NOT NULL,
    PRIMARY KEY (list_id, key)
);                                       -- rowid order: the order members were added

CREATE TABLE suppressed (
    kind      TEXT    NOT NULL,          -- domain, email, handle or person
    key       TEXT    NOT NULL,
    category  TEXT    NOT NULL,
    added_at  INTEGER NOT NULL,
    source    TEXT    NOT NULL DEFAULT '',  -- the file it came from
    PRIMARY KEY (kind, key, category)
) WITHOUT ROWID;
"#;

/// Version 3: the spend engine's ledger (issue 15).
///
/// - `purchases.raw`: the answer's bytes exactly as received, zstd-compressed. A purchase of
///   v3 or later keeps `response` empty: its records are kept once, as entities (whose
///   `purchase_id` points back at it), and its answer is `raw`. Purchases stored before keep
///   their `response` JSON and have no `raw`.
/// - `purchases.job_id`: the job that bought it, if any.
/// - `deliveries.credits_email` / `credits_phone`: what a reveal's results cost, recorded with
///   the delivery that brings them (one credit per verified contact).
/// - `pages` is keyed by the cursor that asked for it (`cursor_in`: `''` for the first page,
///   else the `searchAfter` sent, or `from:N` for a v2 window) and its `size`, and records the
///   cursor of the next page (`cursor_out`), its record count `n` and `total`: a search is read
///   back by following cursors, whatever page sizes bought it. `page` is its position in the
///   chain when it was bought.
/// - `jobs`: every paid action as planned (kind, fingerprint of what it asks, the spec to run it
///   again, the plan), its state (`running`, `done`, `failed`, `interrupted`) and owner process.
/// - `claims`: one row per item being bought or bought (a company domain, a person's email, a
///   search page), written before the call. `state` is `claimed` (lease until `lease_until`),
///   `sent` (a reveal whose answer comes by webhook) or `done` (kept, with its purchase).
const V3: &str = r#"
ALTER TABLE purchases ADD COLUMN raw BLOB;
ALTER TABLE purchases ADD COLUMN job_id INTEGER;
ALTER TABLE deliveries ADD COLUMN credits_email REAL NOT NULL DEFAULT 0;
ALTER TABLE deliveries ADD COLUMN credits_phone REAL NOT NULL DEFAULT 0;

CREATE TABLE pages_v3 (
    search_id   INTEGER NOT NULL REFERENCES searches(id) ON DELETE CASCADE,
    cursor_in   TEXT    NOT NULL,        -- '' for the first page, the searchAfter sent, or from:N
    size        INTEGER NOT NULL,        -- the size asked
    page        INTEGER NOT NULL,        -- 0-based position in the chain when bought
    cursor_out  TEXT,                    -- the answer's searchAfter (NULL at the end)
    n           INTEGER NOT NULL,        -- records in the answer
    total       INTEGER,                 -- the answer's total
    request     TEXT    NOT NULL,        -- JSON
    response    TEXT    NOT NULL,        -- JSON; '' when the purchase holds the answer
    purchase_id INTEGER,
    fetched_at  INTEGER NOT NULL,
    PRIMARY KEY (search_id, cursor_in, size)
);
INSERT OR REPLACE INTO pages_v3 (search_id, cursor_in, size, page, cursor_out, n, total, request,
                                 response, purchase_id, fetched_at)
    SELECT p.search_id,
           coalesce(json_extract(p.request, '$.searchAfter'), ''),
           coalesce(json_extract(p.request, '$.size'), 50),
           p.page,
           json_extract(CASE WHEN p.response = '' THEN pu.response ELSE p.response END, '$.searchAfter'),
           coalesce(json_array_length(CASE WHEN p.response = '' THEN pu.response ELSE p.response END, '$.companies'),
                    json_array_length(CASE WHEN p.response = '' THEN pu.response ELSE p.response END, '$.people'), 0),
           json_extract(CASE WHEN p.response = '' THEN pu.response ELSE p.response END, '$.total'),
           p.request, p.response, p.purchase_id, p.fetched_at
    FROM pages p LEFT JOIN purchases pu ON pu.id = p.purchase_id
    WHERE json_valid(p.request);
DROP TABLE pages;
ALTER TABLE pages_v3 RENAME TO pages;

CREATE TABLE jobs (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,        -- search, lookup_companies, reveal_emails, ...
    fingerprint TEXT    NOT NULL,        -- what it asks, canonical (same command, same text)
    spec        TEXT    NOT NULL,        -- JSON: what runs it again
    plan        TEXT    NOT NULL,        -- JSON of core::engine::Plan
    state       TEXT    NOT NULL,        -- running | done | failed | interrupted
    owner       TEXT    NOT NULL,        -- the process that runs it (pid-nonce)
    pid         INTEGER NOT NULL,
    detail      TEXT    NOT NULL DEFAULT '',
    bought      INTEGER NOT NULL DEFAULT 0,  -- items kept so far
    created_at  INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
CREATE INDEX jobs_state ON jobs(state, updated_at);
CREATE INDEX jobs_fingerprint ON jobs(fingerprint, updated_at);

CREATE TABLE claims (
    key         TEXT    PRIMARY KEY,     -- kind:canonical key, e.g. company:acme.com
    state       TEXT    NOT NULL CHECK (state IN ('claimed', 'sent', 'done')),
    owner       TEXT    NOT NULL,
    job_id      INTEGER,
    purchase_id INTEGER,
    lease_until INTEGER NOT NULL,        -- unix ms; a claimed item past it may be taken over
    at          INTEGER NOT NULL         -- unix ms of the last change
) WITHOUT ROWID;
"#;

/// Version 1: purchases, entities (companies, people, contacts), webhook deliveries, search
/// history.
const V1: &str = r#"
CREATE TABLE purchases (
    id               INTEGER PRIMARY KEY,
    endpoint         TEXT    NOT NULL,   -- path, e.g. /v2/lookup/companies
    request          TEXT    NOT NULL,   -- JSON
    response         TEXT    NOT NULL,   -- JSON, the full answer
    credits_standard REAL    NOT NULL,
    credits_email    REAL    NOT NULL,
    credits_phone    REAL    NOT NULL,
    target           TEXT    NOT NULL,   -- "sandbox" or the base URL
    at               INTEGER NOT NULL    -- unix ms
);
CREATE INDEX purchases_at ON purchases(at);

CREATE TABLE companies (
    domain      TEXT    PRIMARY KEY,     -- normalize_domain
    record      TEXT    NOT NULL,        -- JSON of api::types::company::Company
    fetched_at  INTEGER NOT NULL,
    purchase_id INTEGER REFERENCES purchases(id) ON DELETE SET NULL
);

CREATE TABLE people (
    id          TEXT    PRIMARY KEY,     -- the service's person id
    handle      TEXT,                    -- linkedin_handle(linkedinUrl)
    record      TEXT    NOT NULL,        -- JSON of api::types::person::Person
    fetched_at  INTEGER NOT NULL,
    purchase_id INTEGER REFERENCES purchases(id) ON DELETE SET NULL
);
CREATE INDEX people_handle ON people(handle) WHERE handle IS NOT NULL;

CREATE TABLE contacts (
    person_id   TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('email', 'phone')),
    email       TEXT,
    phones      TEXT    NOT NULL,        -- JSON array of strings
    status      TEXT    NOT NULL,
    revealed_at INTEGER NOT NULL,
    purchase_id INTEGER REFERENCES purchases(id) ON DELETE SET NULL,
    PRIMARY KEY (person_id, kind)
) WITHOUT ROWID;

CREATE TABLE deliveries (
    id          INTEGER PRIMARY KEY,
    event       TEXT    NOT NULL,
    sha256      BLOB    NOT NULL,        -- of the raw body
    body        TEXT    NOT NULL,        -- JSON, sanitized
    received_at INTEGER NOT NULL,
    UNIQUE (event, sha256)
);
CREATE INDEX deliveries_received_at ON deliveries(received_at);

CREATE TABLE searches (
    id           INTEGER PRIMARY KEY,
    endpoint     TEXT    NOT NULL,
    body         TEXT    NOT NULL,       -- canonical JSON (sorted keys), no paging members
    target       TEXT    NOT NULL,
    first_run_at INTEGER NOT NULL,
    last_run_at  INTEGER NOT NULL,
    UNIQUE (endpoint, body, target)
);
CREATE INDEX searches_last_run_at ON searches(last_run_at);

CREATE TABLE pages (
    search_id   INTEGER NOT NULL REFERENCES searches(id) ON DELETE CASCADE,
    page        INTEGER NOT NULL,        -- 0-based
    request     TEXT    NOT NULL,        -- JSON
    response    TEXT    NOT NULL,        -- JSON
    purchase_id INTEGER REFERENCES purchases(id) ON DELETE SET NULL,
    fetched_at  INTEGER NOT NULL,
    PRIMARY KEY (search_id, page)
);
"#;

/// Version 2: `purchase_id` of companies, people and contacts is a plain column, no longer a
/// foreign key. The store checks the purchase itself when it writes (a purchase's own entities
/// are written in its transaction; `put_contacts` checks the id it is given), and nothing
/// deletes purchases. As a foreign key it made every entity upsert "may abort after writing",
/// so SQLite saved each page it changed into a statement journal first: about half the time of
/// storing a 1,000-company answer (`benches/store.rs`).
///
/// SQLite cannot drop a constraint, so each table is rebuilt (rows copied as they are) and its
/// index made again.
const V2: &str = r#"
CREATE TABLE companies_v2 (
    domain      TEXT    PRIMARY KEY,     -- normalize_domain
    record      TEXT    NOT NULL,        -- JSON of api::types::company::Company
    fetched_at  INTEGER NOT NULL,
    purchase_id INTEGER                  -- purchases(id), checked by the store
);
INSERT INTO companies_v2 (domain, record, fetched_at, purchase_id)
    SELECT domain, record, fetched_at, purchase_id FROM companies;
DROP TABLE companies;
ALTER TABLE companies_v2 RENAME TO companies;

CREATE TABLE people_v2 (
    id          TEXT    PRIMARY KEY,     -- the service's person id
    handle      TEXT,                    -- linkedin_handle(linkedinUrl)
    record      TEXT    NOT NULL,        -- JSON of api::types::person::Person
    fetched_at  INTEGER NOT NULL,
    purchase_id INTEGER                  -- purchases(id), checked by the store
);
INSERT INTO people_v2 (id, handle, record, fetched_at, purchase_id)
    SELECT id, handle, record, fetched_at, purchase_id FROM people;
DROP TABLE people;
ALTER TABLE people_v2 RENAME TO people;
CREATE INDEX people_handle ON people(handle) WHERE handle IS NOT NULL;

CREATE TABLE contacts_v2 (
    person_id   TEXT    NOT NULL,
    kind        TEXT    NOT NULL CHECK (kind IN ('email', 'phone')),
    email       TEXT,
    phones      TEXT    NOT NULL,        -- JSON array of strings
    status      TEXT    NOT NULL,
    revealed_at INTEGER NOT NULL,
    purchase_id INTEGER,                 -- purchases(id), checked by the store
    PRIMARY KEY (person_id, kind)
) WITHOUT ROWID;
INSERT INTO contacts_v2 (person_id, kind, email, phones, status, revealed_at, purchase_id)
    SELECT person_id, kind, email, phones, status, revealed_at, purchase_id FROM contacts;
DROP TABLE contacts;
ALTER TABLE contacts_v2 RENAME TO contacts;
"#;
