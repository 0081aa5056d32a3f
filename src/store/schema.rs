//! The schema: an ordered list of migration steps. Step `i` (0-based) takes a file from schema
//! version `i` to `i + 1`; the version is kept in `PRAGMA user_version` (0 for a new file).
//! Steps are only ever appended: a released step is never edited.
//!
//! Conventions of every table: times are unix milliseconds UTC (`INTEGER`), JSON is stored as
//! sanitized text, credits are `REAL`.

/// The migration steps, in order; `MIGRATIONS[0]` is version 1 (the initial schema).
pub(super) const MIGRATIONS: &[&str] = &[V1];

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
