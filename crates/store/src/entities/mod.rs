//! Entities: companies by normalized domain, people by id (and professional-network handle),
//! revealed contacts by (person id, kind). Each row keeps the sanitized JSON of the typed
//! record, when it was fetched and the purchase it came from. A newer record replaces an older
//! one; an older one arriving late changes nothing.

use std::collections::HashMap;

use super::db::{Conn, Keys, OptionalExt, Stmt, params};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::{
    PurchaseId, Result, Store, StoreError, Stored, clean_json, clean_key, from_millis, read_json,
    to_millis,
};
use prospect_api::types::company::Company;
use prospect_api::types::person::Person;
use prospect_api::types::webhooks::{DeliveredContact, WebhookBody};
use prospect_common::ContactKind;
use prospect_common::keys::{linkedin_handle, normalize_domain};
use prospect_common::sanitize::sanitize;

mod reads;
#[cfg(test)]
pub(crate) use reads::{FETCHED_BY_DOMAIN, FETCHED_BY_DOMAIN_OR_ALIAS};

/// How an entity is keyed, for [`Store::fetched_times`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntityKey {
    /// A company by its domain ([`normalize_domain`]).
    Domain,
    /// A person by the service's id.
    PersonId,
    /// A person by professional-network handle ([`linkedin_handle`]).
    Handle,
}

/// A revealed contact of a person: from a reveal webhook, or from a person record that carries
/// `email` / `phone` (search with reveal, enrich). Keyed by (`person_id`, `kind`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Contact {
    /// The service's person id.
    pub person_id: String,
    /// Email or phone.
    pub kind: ContactKind,
    /// The address (kind `Email`); `None` when none was found, and for kind `Phone`.
    pub email: Option<String>,
    /// The numbers (kind `Phone`), e.g. `"+4512345678"`; empty when none, and for kind `Email`.
    pub phones: Vec<String>,
    /// Verification status as on the wire: `verified`, `guessed`, `catchAll`, `notFound`,
    /// `inProgress`, or any newer value.
    pub status: String,
    /// When it was revealed (the purchase's or delivery's time).
    pub revealed_at: DateTime<Utc>,
}

impl Contact {
    /// The contact a delivery or an answer brought (the one mapping of a body to contacts,
    /// [`WebhookBody::contacts`]), revealed at `at`.
    pub fn delivered(c: &DeliveredContact, at: DateTime<Utc>) -> Contact {
        let (email, phones, status) = match c {
            DeliveredContact::Email { email, .. } => {
                (email.address.clone(), Vec::new(), email.status.to_string())
            }
            DeliveredContact::Phone { phone, .. } => {
                (None, phone.numbers.clone(), phone.status.to_string())
            }
        };
        Contact {
            person_id: c.person_id().to_string(),
            kind: c.kind(),
            email,
            phones,
            status,
            revealed_at: at,
        }
    }
}

/// Stored contacts of some people, by person id ([`Store::stored_contacts_of`]).
#[derive(Debug, Clone, Default)]
pub struct StoredContacts {
    /// Email contacts by person id.
    pub emails: HashMap<String, Contact>,
    /// Phone contacts by person id.
    pub phones: HashMap<String, Contact>,
}

impl StoredContacts {
    /// Joins these contacts into `people` (issue 16, "the store is what every view reads"):
    /// each person's `email` and `phone` become the stored contact of that kind (revealed by
    /// any view or process, by webhook or in an answer), unless the stored one is still
    /// `inProgress` and the record already carries one. People without a stored contact are
    /// left as they are. Returns how many people got at least one contact.
    pub fn join(&self, people: &mut [&mut Person]) -> usize {
        use prospect_api::types::WireEnum;
        use prospect_api::types::person::{Email, Phone};
        let pending = |c: &Contact| c.status == "inProgress";
        let mut joined = 0;
        for p in people.iter_mut() {
            if self.emails.is_empty() && self.phones.is_empty() {
                break;
            }
            let id = clean_key(&p.id);
            let mut got = false;
            if let Some(c) = self.emails.get(&id)
                && !(pending(c) && p.email.is_some())
            {
                p.email = Some(Email {
                    address: c.email.clone(),
                    status: WireEnum::from_wire(&c.status),
                });
                got = true;
            }
            if let Some(c) = self.phones.get(&id)
                && !(pending(c) && p.phone.is_some())
            {
                p.phone = Some(Phone {
                    numbers: c.phones.clone(),
                    status: WireEnum::from_wire(&c.status),
                });
                got = true;
            }
            joined += usize::from(got);
        }
        joined
    }
}

/// The contacts a person record carries: one of kind `Email` when it has an `email` member, one
/// of kind `Phone` when it has a `phone` member, both at `at`. None for a person without id.
pub fn contacts_of(person: &Person, at: DateTime<Utc>) -> Vec<Contact> {
    DeliveredContact::of_person(person)
        .iter()
        .map(|c| Contact::delivered(c, at))
        .collect()
}

/// The entities a purchase (or delivery) returned, stored with it.
///
/// `contacts` are contacts besides those the `people` carry: [`contacts_of`] of every person is
/// stored too, so a search-with-reveal answer needs only `people`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Entities {
    /// Companies, stored by [`normalize_domain`] of their `domain` (none stored when empty).
    pub companies: Vec<Company>,
    /// People, stored by `id` (none stored when empty) and findable by the handle of their
    /// `linkedin_url`.
    pub people: Vec<Person>,
    /// Revealed contacts.
    pub contacts: Vec<Contact>,
}

/// [`Entities`] borrowed from the answer that holds them: what a charged answer is packed from
/// ([`pack_answer`](super::pack_answer)) without a copy of its records (the typed records of a
/// 500-company page take about 10 MB).
#[derive(Debug, Default)]
pub struct EntityRefs<'a> {
    /// Companies, as in [`Entities::companies`].
    pub companies: Vec<&'a Company>,
    /// People, as in [`Entities::people`].
    pub people: Vec<&'a Person>,
    /// Revealed contacts besides those the people carry.
    pub contacts: Vec<Contact>,
}

impl EntityRefs<'_> {
    /// An owned copy.
    pub fn cloned(&self) -> Entities {
        Entities {
            companies: self.companies.iter().map(|c| (*c).clone()).collect(),
            people: self.people.iter().map(|p| (*p).clone()).collect(),
            contacts: self.contacts.clone(),
        }
    }
}

impl Entities {
    /// The entities borrowed (see [`EntityRefs`]).
    pub fn refs(&self) -> EntityRefs<'_> {
        EntityRefs {
            companies: self.companies.iter().collect(),
            people: self.people.iter().collect(),
            contacts: self.contacts.clone(),
        }
    }

    /// No entities (a purchase that returned no records).
    pub fn none() -> Entities {
        Entities::default()
    }

    /// Just these companies.
    pub fn companies(companies: Vec<Company>) -> Entities {
        Entities {
            companies,
            ..Entities::default()
        }
    }

    /// Just these people (and the contacts they carry).
    pub fn people(people: Vec<Person>) -> Entities {
        Entities {
            people,
            ..Entities::default()
        }
    }

    /// Number of records: companies + people + contacts.
    pub fn len(&self) -> usize {
        self.companies.len() + self.people.len() + self.contacts.len()
    }

    /// `true` when there is nothing to store.
    pub fn is_empty(&self) -> bool {
        self.companies.is_empty() && self.people.is_empty() && self.contacts.is_empty()
    }

    /// The contacts a webhook body brings (reveal results, or the `email` / `phone` of the
    /// people it carries), revealed at `at`. Person records of a reveal webhook are not stored
    /// as people (the purchase that found them keeps them); the records of a batch enrichment
    /// (`enrich_companies`, `enrich_people`) are, since the delivery is what bought them.
    pub(super) fn from_webhook(body: &WebhookBody, at: DateTime<Utc>) -> Entities {
        Entities {
            companies: body.companies().into_iter().cloned().collect(),
            people: body.people().into_iter().cloned().collect(),
            contacts: body
                .contacts()
                .iter()
                .map(|c| Contact::delivered(c, at))
                .collect(),
        }
    }
}

/// Entities serialized, compressed and keyed, ready to write (built before the write lock is
/// taken). Records are zstd-compressed JSON ([`Record`]).
#[derive(Debug, Clone, Default)]
pub(super) struct Rows {
    companies: Vec<(String, Vec<u8>)>,
    /// `(alias, domain)`: the `redirectedFrom` domains of the companies.
    aliases: Vec<(String, String)>,
    people: Vec<(String, Option<String>, Vec<u8>)>,
    contacts: Vec<ContactRow>,
}

/// zstd level of entity records and of kept answers and requests ([`pack`]): the fastest (a
/// 10,000-company export compresses 80 MB of JSON in well under a second on two threads) and
/// still 3–8× smaller. A record of a few KB then fits in its table page instead of spilling
/// into overflow pages mostly left empty. Measured with `zstd -b` on the 100 records of one
/// sandbox page, each a frame of its own: level 1 packs 246 MB/s at 3.5×, `--fast=1` 305 MB/s
/// at 2.8×, `--fast=5` 399 MB/s at 2.2×; the page's records in one frame 379 MB/s at 6.1×. The
/// frames are about a sixth of the CPU of buying 10,000 companies, so a faster level would
/// save a few percent of it for a quarter more store.
const RECORD_LEVEL: i32 = 1;

/// A record as stored: zstd-compressed JSON (schema 3 on), or JSON text (rows written before).
#[derive(Debug)]
pub(super) enum Record {
    /// JSON text.
    Text(String),
    /// zstd-compressed JSON.
    Zstd(Vec<u8>),
}

impl Record {
    /// Its stored size, bytes.
    pub(super) fn len(&self) -> usize {
        match self {
            Record::Text(t) => t.len(),
            Record::Zstd(z) => z.len() * 4,
        }
    }

    /// The typed record; `None` (with a warning naming the row) when it does not read.
    pub(super) fn read<T: serde::de::DeserializeOwned>(
        &self,
        table: &str,
        key: &dyn std::fmt::Display,
    ) -> Option<T> {
        match self {
            Record::Text(t) => read_json(t, table, key),
            Record::Zstd(z) => match unpack(z) {
                Ok(bytes) => match prospect_common::json::from_json_bytes(&bytes) {
                    Ok(v) => Some(v),
                    Err(error) => {
                        tracing::warn!(table, %key, %error, "store: skipping a row whose JSON does not parse");
                        None
                    }
                },
                Err(error) => {
                    tracing::warn!(table, %key, %error, "store: skipping a row that does not decompress");
                    None
                }
            },
        }
    }
}

/// Largest record read back, bytes (a company record is about 8 KB).
const MAX_RECORD_BYTES: usize = 64 * 1024 * 1024;

/// A stored record's zstd frame decompressed into a buffer of the size its header declares,
/// with one decompression context a thread, reused. Reading 1,000 records made a context and
/// reserved a [`MAX_RECORD_BYTES`] buffer for each: 16.8 ms instead of the 5 ms target of
/// `companies_by_domains` (issue 3). A frame without its size (none is written so) is
/// streamed, up to [`MAX_RECORD_BYTES`].
///
/// # Errors
/// A frame that does not decompress, or declares more than [`MAX_RECORD_BYTES`].
pub(super) fn unpack(frame: &[u8]) -> std::io::Result<Vec<u8>> {
    thread_local! {
        static UNPACKER: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
            const { std::cell::RefCell::new(None) };
    }
    match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(size)) if size <= MAX_RECORD_BYTES as u64 => UNPACKER.with(|u| {
            let mut u = u.borrow_mut();
            if u.is_none() {
                *u = Some(zstd::bulk::Decompressor::new()?);
            }
            u.as_mut()
                .expect("made above")
                .decompress(frame, size as usize)
        }),
        Ok(Some(size)) => Err(std::io::Error::other(format!(
            "a record of {size} bytes, over the {MAX_RECORD_BYTES} read back"
        ))),
        _ => {
            use std::io::Read;
            let mut out = Vec::new();
            zstd::stream::read::Decoder::new(frame)?
                .take(MAX_RECORD_BYTES as u64 + 1)
                .read_to_end(&mut out)?;
            if out.len() > MAX_RECORD_BYTES {
                return Err(std::io::Error::other(format!(
                    "a record over the {MAX_RECORD_BYTES} bytes read back"
                )));
            }
            Ok(out)
        }
    }
}

impl super::db::FromCol for Record {
    fn from_loose(v: super::db::Loose) -> std::result::Result<Self, String> {
        match v {
            super::db::Loose::Text(t) => Ok(Record::Text(t)),
            super::db::Loose::Blob(b) => Ok(Record::Zstd(b)),
            other => Err(format!(
                "expected a record (text or bytes), found {other:?}"
            )),
        }
    }
}

impl rusqlite::types::FromSql for Record {
    fn column_result(v: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        match v {
            rusqlite::types::ValueRef::Text(t) => {
                Ok(Record::Text(String::from_utf8_lossy(t).into_owned()))
            }
            rusqlite::types::ValueRef::Blob(b) => Ok(Record::Zstd(b.to_vec())),
            _ => Err(rusqlite::types::FromSqlError::InvalidType),
        }
    }
}

/// The raw answer `raw` compressed as a run of zstd frames that decompresses to exactly `raw`:
/// a frame for each record text of `texts` (spans of `raw`, in order, as [`company_texts`]
/// gives them) and one for each stretch between them. A record stored from exactly its text
/// (`as_received[i]`, an index into `rows`' companies; see [`Rows::of_answer`]) lends its frame,
/// so each such record is compressed once for both copies. `None` when a text is not a span of
/// `raw` in order (then compress `raw` whole).
///
/// # Errors
/// [`StoreError::Output`](super::StoreError::Output) (compression).
pub(super) fn raw_frames(
    raw: &[u8],
    texts: &[&[u8]],
    as_received: &[Option<usize>],
    rows: &Rows,
) -> Result<Option<Vec<u8>>> {
    let base = raw.as_ptr() as usize;
    let mut spans = Vec::with_capacity(texts.len());
    let mut at = 0usize;
    for t in texts {
        let start = (t.as_ptr() as usize).wrapping_sub(base);
        let end = start.wrapping_add(t.len());
        if start < at || end > raw.len() || start > end {
            return Ok(None);
        }
        spans.push((start, end));
        at = end;
    }
    // JSON compresses about 4×.
    let mut out = Vec::with_capacity(raw.len() / 4);
    let mut at = 0usize;
    for (i, &(start, end)) in spans.iter().enumerate() {
        if start > at {
            out.extend_from_slice(&pack(&raw[at..start])?);
        }
        match as_received
            .get(i)
            .copied()
            .flatten()
            .and_then(|j| rows.companies.get(j))
        {
            Some((_, frame)) => out.extend_from_slice(frame),
            None => out.extend_from_slice(&pack(&raw[start..end])?),
        }
        at = end;
    }
    if at < raw.len() || raw.is_empty() {
        out.extend_from_slice(&pack(&raw[at..])?);
    }
    Ok(Some(out))
}

/// `bytes` compressed as one zstd frame (a stored record, a raw answer or a piece of one, a
/// long request), with one compression context a thread, reused: a lookup of a million
/// domains keeps a thousand answers and requests, and making a context for each was about a
/// percent of its CPU, with fresh pages to zero.
///
/// The frame is written into a buffer the thread reuses and returned as an exact copy: zstd
/// needs room for the worst case (about the input's size), and a frame that kept that room
/// held 3–4 times the memory it uses until its answer was kept (a page of 100 records, about
/// 600 KB more), all of it fresh pages to fault in and zero.
pub(super) fn pack(bytes: &[u8]) -> Result<Vec<u8>> {
    thread_local! {
        /// One compression context a thread, reused: making one costs more than a record.
        static PACKER: std::cell::RefCell<Option<zstd::bulk::Compressor<'static>>> =
            const { std::cell::RefCell::new(None) };
        /// The room a frame is compressed into, kept between frames.
        static ROOM: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    PACKER.with(|p| {
        let mut p = p.borrow_mut();
        if p.is_none() {
            *p = Some(zstd::bulk::Compressor::new(RECORD_LEVEL)?);
        }
        let c = p.as_mut().expect("made above");
        ROOM.with(|room| {
            let mut room = room.borrow_mut();
            room.clear();
            room.reserve(zstd::zstd_safe::compress_bound(bytes.len()));
            c.compress_to_buffer(bytes, &mut *room)?;
            let frame = room.to_vec();
            // A rare huge frame (a whole answer that could not be framed by record) does not
            // keep its room for the rest of the thread's life.
            if room.capacity() > ROOM_KEPT {
                *room = Vec::new();
            }
            Ok(frame)
        })
    })
}

/// The most room [`pack`] keeps between frames (bytes): a page of records is framed record by
/// record, each well under this; a bigger answer framed whole gets its room anew.
const ROOM_KEPT: usize = 1 << 20;

#[derive(Debug, Clone)]
struct ContactRow {
    person_id: String,
    kind: ContactKind,
    email: Option<String>,
    phones: String,
    status: String,
    revealed_at: i64,
}

/// The slices of `raw` at `spans`, when each is in `raw`, after the one before it, and starts
/// an object (`{`); `None` otherwise.
pub(super) fn texts_at<'a>(
    raw: &'a [u8],
    spans: &[std::ops::Range<usize>],
) -> Option<Vec<&'a [u8]>> {
    let mut at = 0;
    let mut out = Vec::with_capacity(spans.len());
    for span in spans {
        let text = raw.get(span.clone()).filter(|_| span.start >= at)?;
        if text.first() != Some(&b'{') {
            return None;
        }
        at = span.end;
        out.push(text);
    }
    Some(out)
}

/// The text of each company record in the raw answer `raw` of `endpoint`, in the order the
/// typed answer lists its companies (`companies[i].company` of a search; a lookup entry's
/// `company`, or the entry itself in the flat form, leaving out unmatched entries). `None` for
/// other endpoints, or when the answer does not scan in that shape.
pub(super) fn company_texts(
    endpoint: prospect_api::client::Endpoint,
    raw: &[u8],
) -> Option<Vec<&[u8]>> {
    use prospect_api::client::Endpoint;
    use prospect_api::types::common::lenient;
    use serde_json::value::RawValue;

    #[derive(Deserialize)]
    struct List<'a> {
        #[serde(borrow)]
        companies: Vec<&'a RawValue>,
    }
    #[derive(Deserialize)]
    struct Item<'a> {
        #[serde(default, borrow, deserialize_with = "lenient::raw_member")]
        company: Option<&'a RawValue>,
    }
    match endpoint {
        Endpoint::LookupCompanies => {}
        Endpoint::SearchCompaniesV2 | Endpoint::SearchCompaniesV3 => {
            // A search's records are its entries' `company` objects, as the run skims them.
            let spans = prospect_api::types::search::skim(raw)?.company_spans?;
            return texts_at(raw, &spans);
        }
        _ => return None,
    }
    // One pass when every entry has a `company` member (a lookup's usual `ByDomain` entries).
    #[derive(Deserialize)]
    struct Items<'a> {
        #[serde(borrow)]
        companies: Vec<Item<'a>>,
    }
    /// Adds one entry's record text to `out`: its `company` member, or the entry itself (a
    /// flat entry, without `company`); a `null` company adds nothing. `None` when the entry is
    /// of neither shape.
    fn add<'a>(
        out: &mut Vec<&'a [u8]>,
        company: Option<&'a RawValue>,
        entry: Option<&'a RawValue>,
    ) -> Option<()> {
        match company {
            None => out.push(entry?.get().as_bytes()),
            Some(c) if c.get().trim() == "null" => {}
            Some(c) if c.get().trim_start().starts_with('{') => out.push(c.get().as_bytes()),
            _ => return None,
        }
        Some(())
    }
    let items: Items<'_> = serde_json::from_slice(raw).ok()?;
    let mut out = Vec::with_capacity(items.companies.len());
    if items.companies.iter().all(|i| i.company.is_some()) {
        for Item { company } in items.companies {
            add(&mut out, company, None)?;
        }
        return Some(out);
    }
    // A lookup with flat entries (the entry is the company): each entry's own text.
    let list: List<'_> = serde_json::from_slice(raw).ok()?;
    for item in list.companies {
        let Item { company } = serde_json::from_str(item.get()).ok()?;
        add(&mut out, company, Some(item))?;
    }
    Some(out)
}

impl Rows {
    /// Each company's key and record frame, in answer order.
    #[cfg(test)]
    pub(crate) fn company_frames(&self) -> &[(String, Vec<u8>)] {
        &self.companies
    }

    /// Sanitizes and keys `e`; records without a key (empty domain or id) are left out with a
    /// warning. People's contacts are revealed at `at`.
    pub(super) fn of(e: &Entities, at: DateTime<Utc>) -> Result<Rows> {
        Ok(Rows::of_answer(&e.refs(), at, None)?.0)
    }

    /// [`Rows::of`], given the text of each company as received (`texts`, in the order of
    /// `e.companies`; see [`company_texts`]): a text with nothing to sanitize is stored as it
    /// came, without serializing the typed record again. Ignored unless it has one text per
    /// company.
    ///
    /// Also returns, for each text, the index in the rows' companies of the record packed from
    /// exactly that text (`None` when the record was serialized again, or left out): what
    /// [`raw_frames`] reuses. Empty when `texts` is ignored.
    pub(super) fn of_answer(
        e: &EntityRefs<'_>,
        at: DateTime<Utc>,
        texts: Option<&[&[u8]]>,
    ) -> Result<(Rows, Vec<Option<usize>>)> {
        let mut rows = Rows::default();
        let texts = texts.filter(|t| t.len() == e.companies.len());
        let mut as_received = vec![None; texts.map_or(0, <[_]>::len)];
        for (i, c) in e.companies.iter().enumerate() {
            let key = normalize_domain(&c.domain);
            if key.is_empty() {
                tracing::warn!(domain = %sanitize(&c.domain), "store: company without a domain not stored");
                continue;
            }
            let record = match texts.map(|t| t[i]) {
                Some(text) if super::clean::raw_json_bytes_are_clean(text) => {
                    as_received[i] = Some(rows.companies.len());
                    pack(text)?
                }
                _ => pack(clean_json(c)?.as_bytes())?,
            };
            for alias in &c.redirected_from {
                let a = normalize_domain(alias);
                if !a.is_empty() && a != key {
                    rows.aliases.push((a, key.clone()));
                }
            }
            rows.companies.push((key, record));
        }
        for p in &e.people {
            let id = clean_key(&p.id);
            if id.is_empty() {
                tracing::warn!("store: person without an id not stored");
                continue;
            }
            let handle = p.linkedin_url.as_deref().and_then(linkedin_handle);
            rows.people
                .push((id, handle, pack(clean_json(p)?.as_bytes())?));
        }
        let carried: Vec<Contact> = e.people.iter().flat_map(|p| contacts_of(p, at)).collect();
        rows.contacts = Rows::contact_rows(carried.iter().chain(&e.contacts))?;
        Ok((rows, as_received))
    }

    /// Bytes of record JSON in the rows (about what they add to the log).
    pub(super) fn bytes(&self) -> usize {
        let companies: usize = self.companies.iter().map(|(_, r)| r.len()).sum();
        let people: usize = self.people.iter().map(|(_, _, r)| r.len()).sum();
        companies + people
    }

    /// Sanitizes and keys contacts; those without a person id are left out with a warning.
    fn contact_rows<'a>(
        contacts: impl IntoIterator<Item = &'a Contact>,
    ) -> Result<Vec<ContactRow>> {
        let mut out = Vec::new();
        for c in contacts {
            let person_id = clean_key(&c.person_id);
            if person_id.is_empty() {
                tracing::warn!("store: contact without a person id not stored");
                continue;
            }
            let phones: Vec<String> = c.phones.iter().map(|n| sanitize(n)).collect();
            out.push(ContactRow {
                person_id,
                kind: c.kind,
                email: c.email.as_deref().map(sanitize),
                phones: serde_json::to_string(&phones)?,
                status: sanitize(&c.status),
                revealed_at: to_millis(c.revealed_at),
            });
        }
        Ok(out)
    }

    /// Upserts every row (inside the caller's transaction): rows fetched at `at_ms` replace
    /// rows fetched no later.
    pub(super) fn write(
        &self,
        conn: &Conn,
        at_ms: i64,
        purchase: Option<PurchaseId>,
    ) -> Result<()> {
        let pid = purchase.map(|p| p.0);
        if !self.companies.is_empty() {
            let mut st = conn.prepare_cached(
                "INSERT INTO companies (domain, record, fetched_at, purchase_id) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (domain) DO UPDATE SET record = excluded.record,
                   fetched_at = excluded.fetched_at, purchase_id = excluded.purchase_id
                 WHERE excluded.fetched_at >= companies.fetched_at",
            )?;
            for (domain, record) in &self.companies {
                st.execute_deferred(params![domain, record, at_ms, pid])?;
            }
        }
        write_aliases(conn, &self.aliases)?;
        if !self.people.is_empty() {
            let mut st = conn.prepare_cached(
                "INSERT INTO people (id, handle, record, fetched_at, purchase_id) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (id) DO UPDATE SET handle = excluded.handle, record = excluded.record,
                   fetched_at = excluded.fetched_at, purchase_id = excluded.purchase_id
                 WHERE excluded.fetched_at >= people.fetched_at",
            )?;
            for (id, handle, record) in &self.people {
                st.execute_deferred(params![id, handle, record, at_ms, pid])?;
            }
        }
        if !self.contacts.is_empty() {
            let mut st = conn.prepare_cached(
                "INSERT INTO contacts (person_id, kind, email, phones, status, revealed_at, purchase_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT (person_id, kind) DO UPDATE SET email = excluded.email,
                   phones = excluded.phones, status = excluded.status,
                   revealed_at = excluded.revealed_at, purchase_id = excluded.purchase_id
                 WHERE excluded.revealed_at >= contacts.revealed_at",
            )?;
            for c in &self.contacts {
                st.execute_deferred(params![
                    c.person_id,
                    c.kind.as_str(),
                    c.email,
                    c.phones,
                    c.status,
                    c.revealed_at,
                    pid
                ])?;
            }
        }
        Ok(())
    }
}

/// Keeps `(alias, domain)` pairs of company keys (inside the caller's transaction): an alias
/// already kept now points at `domain`; an alias that is itself a stored company's domain is
/// not kept (that company answers for it).
pub(super) fn write_aliases(conn: &Conn, aliases: &[(String, String)]) -> Result<()> {
    if aliases.is_empty() {
        return Ok(());
    }
    let mut st = conn.prepare_cached(
        "INSERT INTO company_aliases (alias, domain) SELECT ?1, ?2
         WHERE ?1 <> ?2 AND NOT EXISTS (SELECT 1 FROM companies WHERE domain = ?1)
         ON CONFLICT (alias) DO UPDATE SET domain = excluded.domain",
    )?;
    for (alias, domain) in aliases {
        st.execute_deferred(params![alias, domain])?;
    }
    Ok(())
}

/// `Err(NoSuchPurchase)` unless `purchase` is `None` or a stored purchase.
pub(super) fn check_purchase(conn: &Conn, purchase: Option<PurchaseId>) -> Result<()> {
    let Some(p) = purchase else { return Ok(()) };
    let found = conn
        .prepare_cached("SELECT 1 FROM purchases WHERE id = ?1")?
        .query_row(params![p.0], |_| Ok(()))
        .optional()?;
    found.ok_or(StoreError::NoSuchPurchase(p))
}

pub(super) const COMPANY_BY_DOMAIN: &str =
    "SELECT record, fetched_at, purchase_id FROM companies WHERE domain = ?1";
/// The company an alias ([`write_aliases`]) redirects to.
pub(super) const COMPANY_BY_ALIAS: &str = "SELECT c.record, c.fetched_at, c.purchase_id
     FROM company_aliases a JOIN companies c ON c.domain = a.domain WHERE a.alias = ?1";
pub(super) const PERSON_BY_ID: &str =
    "SELECT record, fetched_at, purchase_id FROM people WHERE id = ?1";
pub(super) const PERSON_BY_HANDLE: &str = "SELECT record, fetched_at, purchase_id FROM people
     WHERE handle = ?1 ORDER BY fetched_at DESC, id LIMIT 1";
pub(super) const CONTACT: &str = "SELECT email, phones, status, revealed_at FROM contacts
     WHERE person_id = ?1 AND kind = ?2";
// The keys drive the loop (one index search each, in the caller's order): `IN rarray(?1)`
// would first copy them into a temporary sorted index.
pub(super) const COMPANIES_IN: &str =
    "SELECT domain, record, fetched_at, purchase_id FROM rarray(?1) AS k
     JOIN companies ON companies.domain = k.value";
/// The companies that aliases ([`write_aliases`]) redirect to, keyed by the alias asked.
pub(super) const COMPANIES_BY_ALIAS_IN: &str =
    "SELECT a.alias, c.record, c.fetched_at, c.purchase_id FROM rarray(?1) AS k
     JOIN company_aliases a ON a.alias = k.value JOIN companies c ON c.domain = a.domain";
pub(super) const PEOPLE_IN: &str = "SELECT id, record, fetched_at, purchase_id FROM rarray(?1) AS k
     JOIN people ON people.id = k.value";
pub(super) const PEOPLE_BY_MATCH_IN: &str =
    "SELECT m.key, p.record, p.fetched_at, p.purchase_id FROM rarray(?1) AS k
     JOIN person_matches m ON m.key = k.value JOIN people p ON p.id = m.person_id";
pub(super) const PEOPLE_BY_HANDLE_IN: &str =
    "SELECT handle, record, fetched_at, purchase_id FROM people
     WHERE handle IN rarray(?1) ORDER BY fetched_at, id DESC";
pub(super) const CONTACTS_IN: &str =
    "SELECT person_id, email, phones, status, revealed_at FROM contacts
     WHERE kind = ?2 AND person_id IN rarray(?1)";

/// Bytes of record JSON from which the batch getters read records on two threads (below it,
/// starting a thread costs more than it saves).
const PARALLEL_PARSE_BYTES: usize = 512 * 1024;

/// One entity row: record JSON, fetched_at, purchase_id.
type EntityRow = (Record, i64, Option<i64>);

impl Store {}
