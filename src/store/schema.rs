//! The schema: an ordered list of migration steps. Step `i` (0-based) takes a file from schema
//! version `i` to `i + 1`; the version is kept in `PRAGMA user_version` (0 for a new file).
//! Steps are only ever appended: a released step is never edited.
//!
//! Conventions of every table: times are unix milliseconds UTC (`INTEGER`), JSON is stored as
//! sanitized text, credits are `REAL`.

/// The migration steps, in order; `MIGRATIONS[0]` is version 1 (the initial schema).
pub(super) const MIGRATIONS: &[&str] = &[V1, V2];

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
