//! What a loaded [`Db`](crate::dataset::load::Db) holds that the engine builds and reads: the
//! types of its indexes and caches (the people and their pools, the autocomplete and lookalike
//! indexes, the gathered companies' keys, the record and ranking caches). Only their
//! definitions are here, so the dataset can hold them without naming the algorithms; their
//! methods are with the algorithm that builds and reads each (`people.rs`, `autocomplete.rs`,
//! `lookalike.rs`, `gathered.rs`, `paging.rs`, `cache.rs`).

use std::collections::HashMap;
use std::sync::Arc;

use prospect_api::types::RecordJson;

use super::FastMap;

use super::index::Index;

/// Serialized company records kept (at ~7 KB each, ~30 MB).
pub const RECORDS_CACHED: usize = 4_096;

/// Serialized person records kept (at ~3 KB each, ~25 MB).
pub const PERSON_RECORDS_CACHED: usize = 8_192;

/// Rankings of recent searches kept at most (each about 16–32 bytes per match: the sorted head
/// and the rest of a lookalike ranking, or its whole sorted ranking once a page reached past
/// the head and the head).
pub const RANKINGS_CACHED: usize = 64;

/// Matches the kept rankings may hold together (a people search may match every person of the
/// dataset): a ranking weighs its number of matches, and the least used go first past it.
pub const RANKED_MATCHES_CACHED: u64 = 4_000_000;

/// Serialized records of the dataset's companies, by company index; shared by every snapshot
/// of one dataset.
pub(crate) type RecordCache = quick_cache::sync::Cache<u32, RecordJson>;

/// Rankings of one snapshot by search key (see [`Db::ranked`]); a snapshot with more companies
/// gets a new one.
pub(crate) type RankingCache = quick_cache::sync::Cache<String, Arc<Ranked>, ByMatches>;

/// The weight of a kept ranking: its number of matches (fixed when it is made).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct ByMatches;

impl quick_cache::Weighter<String, Arc<Ranked>> for ByMatches {
    fn weight(&self, _: &String, ranked: &Arc<Ranked>) -> u64 {
        ranked.total() as u64 + 1
    }
}

/// A new, empty cache of person records (by person index).
pub(crate) fn person_record_cache() -> Arc<RecordCache> {
    Arc::new(RecordCache::new(PERSON_RECORDS_CACHED))
}

/// A new, empty record cache.
pub(crate) fn record_cache() -> Arc<RecordCache> {
    Arc::new(RecordCache::new(RECORDS_CACHED))
}

/// A new, empty ranking cache.
pub(crate) fn ranking_cache() -> Arc<RankingCache> {
    Arc::new(RankingCache::with_weighter(
        RANKINGS_CACHED,
        RANKED_MATCHES_CACHED,
        ByMatches,
    ))
}

/// The matches of a search in ranking order, `(key, index)` ascending, kept between its pages
/// ([`crate::dataset::load::Db::ranked`]): the best of them sorted (`head`), and the
/// others sorted only when a page first reaches past the head (a lookalike search sorts about
/// a page's worth of its thousands of matches at first, `search::ranked_scored`). Pages are
/// the ones [`select_page`] gives of all the matches.
pub struct Ranked {
    /// The best matches, sorted; every key here sorts before every key of the rest.
    pub(crate) head: Vec<(u64, u32)>,
    /// Number of matches, the head's included.
    pub(crate) total: usize,
    /// Gives the matches after the head, sorted; taken (and its matches freed) when `all` is
    /// made. `None` when the head holds them all.
    pub(crate) rest: std::sync::Mutex<Option<SortRest>>,
    /// The head and the sorted rest, made on the first page that needs them.
    pub(crate) all: std::sync::OnceLock<Vec<(u64, u32)>>,
}

/// Gives the matches of a [`Ranked`] after its head, sorted.
pub(crate) type SortRest = Box<dyn FnOnce() -> Vec<(u64, u32)> + Send>;

/// The key maps of the gathered companies and of their people (the dataset's are in
/// `Db::index` and `Db::people`).
#[derive(Debug, Default, Clone)]
pub struct Gathered {
    /// Domain, alias, handle, name, label and phone maps; `default_order` lists the gathered
    /// companies in the order they were added.
    pub index: Index,
    /// Domain hash → company index (resolves person ids).
    pub by_domain_hash: FastMap<u64, u32>,
    /// (handle tag, person index), sorted (resolves LinkedIn handles).
    pub handle_tags: Vec<(u32, u32)>,
}

/// One job title of the title vocabulary.
#[derive(Debug, Clone)]
pub struct TitleInfo {
    /// The title as displayed, e.g. `Senior Software Engineer`.
    pub title: String,
    /// Lowercase form for matching.
    pub lower: String,
    /// Index in `Seniority::ALL`.
    pub seniority: u8,
    /// Index in `Department::ALL`.
    pub department: u8,
}

/// One generated person (compact; strings are built on demand).
/// Most skills a person has.
pub const MAX_SKILLS: usize = 8;

#[derive(Debug, Clone, Copy, Default)]
pub struct PersonRow {
    /// Company index.
    pub company: u32,
    /// Index into [`People::first_pool`].
    pub first: u32,
    /// Index into [`People::last_pool`].
    pub last: u32,
    /// Index into [`People::titles`].
    pub title: u32,
    /// Ordinal of the person within the company (0 = the founder/CEO).
    pub ordinal: u16,
    /// Index in `Seniority::ALL`.
    pub seniority: u8,
    /// Index in `Department::ALL`.
    pub department: u8,
    /// Index in `EmailStatus::ALL` (verified, guessed, catchAll, notFound).
    pub email_status: u8,
    /// Index in `PhoneStatus::ALL` (verified, notFound, inProgress).
    pub phone_status: u8,
    /// Number of experiences (1–4), the current position included.
    pub n_exp: u8,
    /// Start of the current position, `yyyymm`.
    pub started: u32,
    /// Seed of everything else derived for this person.
    pub seed: u64,
    /// Skill indexes (into [`People::skills`]), the first `n_skills` of them: drawn from the
    /// seed once, at generation, so that skill filters read them instead of drawing them.
    pub skills: [u16; MAX_SKILLS],
    /// Number of skills (4–8).
    pub n_skills: u8,
}

/// All generated people and the pools their strings come from.
#[derive(Debug, Default, Clone)]
pub struct People {
    /// The title vocabulary.
    pub titles: Vec<TitleInfo>,
    /// Title indexes by department index.
    pub titles_by_dept: Vec<Vec<u32>>,
    /// Office title indexes by department index (sorted): the titles of
    /// `titles_by_dept` that name the department's usual office work and no trade or field
    /// work (see [`OFFICE_WORDS`], [`TRADE_WORDS`]). People of companies outside the
    /// industrial categories (see [`is_industrial_category`]) get these.
    pub office_by_dept: Vec<Vec<u32>>,
    /// Distinct lowercase words of the titles, each with the titles containing it (sorted):
    /// one-word job-title filters scan these instead of every title.
    pub title_words: Vec<(String, Vec<u32>)>,
    /// First names of all country groups.
    pub first_pool: Vec<String>,
    /// Last names of all country groups.
    pub last_pool: Vec<String>,
    /// First names folded for matching (`autocomplete::fold`; same indexes as `first_pool`).
    pub first_folded: Vec<String>,
    /// Last names folded for matching (same indexes as `last_pool`).
    pub last_folded: Vec<String>,
    /// Skills vocabulary.
    pub skills: Vec<String>,
    /// The skills in lowercase (same indexes as `skills`), for matching.
    pub skills_lower: Vec<String>,
    /// Skill indexes by department index (index 24: general skills).
    pub skills_by_dept: Vec<Vec<u32>>,
    /// Domain hash → company index (resolves person ids).
    pub by_domain_hash: FastMap<u64, u32>,
    /// (handle tag, person index), sorted: resolves LinkedIn handles.
    pub handle_tags: Vec<(u32, u32)>,
    pub(crate) first_groups: Vec<(usize, usize)>,
    pub(crate) last_groups: Vec<(usize, usize)>,
    pub(crate) first_by_country: HashMap<String, usize>,
    pub(crate) last_by_country: HashMap<String, usize>,
}

/// Prefix and approximate index over a list of texts; entries are `u32` items of the caller
/// (company indexes, vocabulary ids, ...).
#[derive(Debug, Default, Clone)]
pub struct TextIndex {
    /// Word starts as (entry index, byte offset in the entry's folded text), sorted by the text
    /// from that offset (then by entry).
    pub(crate) keys: Vec<(u32, u32)>,
    /// Per entry: (folded text, item, rank).
    pub(crate) entries: Vec<(Box<str>, u32, u32)>,
    /// Distinct trigrams (3 bytes packed in a `u32`), sorted.
    pub(crate) tri_keys: Vec<u32>,
    /// `tri_entries[tri_start[k]..tri_start[k + 1]]` are the entries holding `tri_keys[k]`.
    pub(crate) tri_start: Vec<u32>,
    /// Entry indexes, grouped by trigram.
    pub(crate) tri_entries: Vec<u32>,
}

/// A location suggestion in compact form.
#[derive(Debug, Clone, PartialEq)]
pub struct LocationEntry {
    /// `1-country`, `2-region`, `4-city` (openapi `LocationType`), as 1, 2, 4.
    pub kind: u8,
    /// Display name (`Germany`, `California`, `Berlin`).
    pub name: String,
    /// Lowercase country code.
    pub country: String,
    /// What to put in a filter: the country code, the region abbreviation (`CA` of `US-CA`), or
    /// the city name.
    pub filter_code: String,
    /// Code of the parent (country code for a region; region code or country code for a city).
    pub parent_code: String,
    /// Name of the parent.
    pub parent_name: String,
}

/// The five autocomplete indexes.
#[derive(Debug, Default, Clone)]
pub struct Autocompletes {
    /// Company names and domains → company index (rank: default order).
    pub companies: TextIndex,
    /// Keywords → keyword id (rank: most used first).
    pub keywords: TextIndex,
    /// Job titles → title index.
    pub job_titles: TextIndex,
    /// Skills → skill index.
    pub skills: TextIndex,
    /// Locations → index into `locations`.
    pub location_index: TextIndex,
    /// Location entries.
    pub locations: Vec<LocationEntry>,
}

/// The lookalike postings of the dataset's companies (the base layer; gathered companies are
/// scored through [`TargetSet`]): for each industry, category, keyword and technology id the
/// companies that have it (one entry per occurrence, as [`TargetSet`] counts them), and each
/// company's list lengths, size and country in one compact array. A target's similarities to
/// every base company then come from walking its postings once, instead of reading every
/// company's lists; those of the last [`TARGETS_KEPT`] dataset targets are kept.
///
/// Everything here is by *position*, the base companies in the default order (by
/// `default_rank`): a search reads its arrays front to back and its matches come out in
/// default order, which a stable sort by score leaves in ranking order.
#[derive(Debug, Default)]
pub struct BaseIndex {
    /// The profile of the company at each position.
    pub(crate) profiles: Vec<Profile>,
    /// The company index at each position.
    pub(crate) order: Vec<u32>,
    /// The `default_rank` at each position (ascending).
    pub(crate) ranks: Vec<u32>,
    /// The position of each base company (by company index).
    pub(crate) position: Vec<u32>,
    /// The longest industry, keyword and technology lists of a company.
    pub(crate) longest: (u32, u32, u32),
    pub(crate) industries: Postings,
    pub(crate) categories: Postings,
    pub(crate) keywords: Postings,
    pub(crate) technologies: Postings,
    /// `raw(c, t)` of every base company `c`, by dataset target `t` ([`BaseIndex::raws`]).
    pub(crate) kept: KeptRaws,
}

/// `raw(c, t)` of every base company `c` (by position, [`BaseIndex`]) against one target `t`.
pub(crate) type Raws = std::sync::Arc<[f64]>;

/// The kept [`Raws`] by target company index (dataset companies only: a gathered company's
/// index names another company in another sandbox sharing the dataset).
pub(crate) struct KeptRaws(pub(crate) quick_cache::sync::Cache<u32, Raws>);

/// What the score needs of a company besides the shared ids.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Profile {
    pub(crate) log_emp: f32,
    pub(crate) country: u32,
    pub(crate) n_industries: u32,
    pub(crate) n_keywords: u32,
    pub(crate) n_technologies: u32,
}

/// id → company positions, flattened (`ids[start[id]..start[id + 1]]`).
#[derive(Debug, Default)]
pub(crate) struct Postings {
    pub(crate) start: Vec<u32>,
    pub(crate) ids: Vec<u32>,
}

/// The dataset's people by seniority, department and title: each a sorted list of person
/// indexes. Built once, on the first people search that can use it, and shared by every
/// snapshot (`Db::postings`; what reads it is in `engine/postings.rs`).
#[derive(Debug, Default)]
pub struct PeoplePostings {
    /// People indexed (the dataset's; gathered people come after them).
    pub(crate) base: u32,
    /// By `Seniority::ALL` index.
    pub(crate) by_seniority: Vec<Vec<u32>>,
    /// By `Department::ALL` index.
    pub(crate) by_department: Vec<Vec<u32>>,
    /// By title index (`People::titles`).
    pub(crate) by_title: Vec<Vec<u32>>,
}
