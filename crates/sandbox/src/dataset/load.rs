//! Loads the dataset into memory and indexes it: [`Db`].
//!
//! `Db::load_embedded()` decodes the asset compiled into the binary
//! (`assets/dataset.postcard.zst`: zstd frames of postcard values, see [`super::format`]),
//! its company frames on every core; `Db::from_dataset`
//! indexes any [`Dataset`] (tests build tiny ones by hand). Indexing interns repeated strings,
//! builds compact per-company columns, the domain/alias/handle maps, the autocomplete
//! structures, and generates the synthetic people (see [`crate::engine`]).

use anyhow::{Context, bail};

use super::format::{
    CompanyRow, DATASET_FILE, Dataset, FORMAT_VERSION, Header, Reference, postcard_frames,
};
use std::sync::Arc;

use crate::engine::held::{
    Autocompletes, BaseIndex, Gathered, People, PersonRow, RankingCache, RecordCache,
};
use crate::engine::index::{self, CompanyCols, Index, RowView, Vocab};
use crate::engine::layered::Layered;

/// The dataset asset as compiled into the binary.
static EMBEDDED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../assets/dataset.postcard.zst"
));

/// The loaded, indexed sandbox dataset: ~40,000 companies, their generated people, the
/// reference data, and the indexes the engine's searches run on. Immutable once built; share it
/// with `Arc<Db>`. The query methods live in [`crate::engine`].
pub struct Db {
    /// Companies as stored in the asset (index = company index), then the gathered ones.
    pub(crate) companies: Layered<CompanyRow>,
    /// Reference data (SPEC.md §2.8 and the autocomplete vocabularies).
    pub(crate) reference: Arc<Reference>,
    /// Interned vocabularies.
    pub(crate) vocab: Arc<Vocab>,
    /// Compact per-company columns (index = company index).
    pub(crate) cols: Layered<CompanyCols>,
    /// Domain, alias, handle and name maps of the dataset's companies.
    pub(crate) index: Arc<Index>,
    /// The people vocabularies and the id and handle maps of the dataset's people.
    pub(crate) people: Arc<People>,
    /// Generated people (index = person index), grouped by company (`CompanyCols::people`).
    pub(crate) person_rows: Layered<PersonRow>,
    /// The key maps of the companies gathered after loading and of their people.
    pub(crate) gathered: Arc<Gathered>,
    /// Autocomplete structures of the dataset's companies, built on first use
    /// ([`Db::autocompletes`]; the service builds them in the background right after loading)
    /// and shared by every snapshot.
    pub(crate) ac: Arc<std::sync::OnceLock<Autocompletes>>,
    /// The lookalike postings of the dataset's companies, built on the first lookalike search
    /// and shared by every snapshot (gathered companies are scored without them).
    pub(crate) look: Arc<std::sync::OnceLock<BaseIndex>>,
    /// The postings of the dataset's people by seniority, department and title, built on the
    /// first people search that can use them and shared by every snapshot
    /// ([`Db::postings`]; gathered people are scanned).
    pub(crate) postings: Arc<std::sync::OnceLock<crate::engine::held::PeoplePostings>>,
    /// Serialized records of the dataset's companies ([`Db::record_json`]), shared by every
    /// snapshot.
    pub(crate) records: Arc<RecordCache>,
    /// Serialized records of the dataset's people, without contacts
    /// ([`Db::lookalike_person_json`]), shared by every snapshot.
    pub(crate) person_records: Arc<RecordCache>,
    /// Rankings of recent searches on this snapshot ([`Db::ranked`]); a new snapshot (with
    /// gathered companies) starts a new one.
    pub(crate) rankings: Arc<RankingCache>,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("companies", &self.companies.len())
            .field("people", &self.person_rows.len())
            .field("gathered", &self.companies.tail().len())
            .finish()
    }
}

impl Db {
    /// Decodes and indexes the dataset embedded in the binary (`assets/dataset.postcard.zst`).
    ///
    /// Errors when the asset cannot be decompressed or parsed, or when its
    /// [`Dataset::version`] differs from [`FORMAT_VERSION`] (rebuild the asset).
    pub fn load_embedded() -> anyhow::Result<Db> {
        Ok(Db::load_embedded_timed()?.0)
    }

    /// [`Db::load_embedded`], also returning how long each phase took (phase name, time), in
    /// order; for the start-up benchmark (issue 3, "Speed").
    pub fn load_embedded_timed() -> anyhow::Result<(Db, Vec<(&'static str, std::time::Duration)>)> {
        Db::open_embedded()?.index()
    }

    /// The first step of [`Db::load_embedded`]: splits the embedded asset into its frames and
    /// decodes its header, whose reference data (`/v2/data-fields`, SPEC.md §2.8) is usable at
    /// once; [`OpenedAsset::index`] then decodes and indexes the companies (the long part).
    ///
    /// Errors as [`Db::load_embedded`] for the header (another format version, a cut frame).
    pub fn open_embedded() -> anyhow::Result<OpenedAsset> {
        let phases = Phases::new();
        let frames = split_frames(EMBEDDED)?;
        let header = decode_header(frames[0])?;
        let mut opened = OpenedAsset {
            frames,
            company_frames: header.company_frames,
            companies: header.companies,
            reference: Arc::new(header.reference),
            phases,
        };
        opened.phases.mark("header and reference");
        Ok(opened)
    }

    /// Indexes a dataset (any version; used by tests with small hand-made datasets). Companies
    /// are kept in the given order; people are generated deterministically.
    pub fn from_dataset(ds: Dataset) -> Db {
        let views: Vec<RowView<'_>> = ds.companies.iter().map(RowView::of).collect();
        Db::build(&views, Arc::new(ds.reference.clone()), &mut Phases::new())
    }

    /// Indexes borrowed rows: vocabularies and columns, the slim owned rows, people, autocompletes.
    fn build(views: &[RowView<'_>], reference: Arc<Reference>, phases: &mut Phases) -> Db {
        // The slim owned rows depend on nothing else: build them on their own thread while
        // the columns, key maps, people and autocompletes are built.
        let refs = &*reference;
        let (companies, vocab, cols, index, (people, person_rows)) = std::thread::scope(|s| {
            let slim = s.spawn(|| {
                let t = std::time::Instant::now();
                let v = views.iter().map(RowView::slim).collect::<Vec<CompanyRow>>();
                (v, t.elapsed())
            });
            // The people vocabulary depends on the reference data only.
            let people_vocab = s.spawn(|| People::vocab(refs));
            let (vocab, mut cols, index) = index::build(views, refs);
            let people_vocab = people_vocab.join().expect("people vocabulary thread");
            phases.mark("index (intern, columns, maps) | people vocab");
            // People need the columns. (The autocompletes are built later, on first use.)
            let (people, person_rows, ranges) = people_vocab.generate(views, &cols);
            phases.mark("people");
            for (c, r) in cols.iter_mut().zip(ranges) {
                c.people = r;
            }
            let (companies, slim_time) = slim.join().expect("slim rows thread");
            phases.extra("  (thread, from the start) slim rows", slim_time);
            phases.mark("wait for slim rows");
            (companies, vocab, cols, index, (people, person_rows))
        });
        Db {
            companies: Layered::new(companies),
            reference,
            vocab: Arc::new(vocab),
            cols: Layered::new(cols),
            index: Arc::new(index),
            people: Arc::new(people),
            person_rows: Layered::new(person_rows),
            gathered: Arc::default(),
            ac: Arc::default(),
            look: Arc::default(),
            postings: Arc::default(),
            records: crate::engine::held::record_cache(),
            person_records: crate::engine::held::person_record_cache(),
            rankings: crate::engine::held::ranking_cache(),
        }
    }

    /// Number of companies.
    pub fn company_count(&self) -> usize {
        self.companies.len()
    }

    /// Number of generated people.
    pub fn person_count(&self) -> usize {
        self.person_rows.len()
    }

    /// The stored company row of a domain or alias (normalized as
    /// [`normalize_domain`](crate::engine::normalize_domain) does), if known. The
    /// stored rows are slim: the lists kept interned in the engine's columns (industries,
    /// industry categories, keywords, technologies, technology categories, department sizes,
    /// sources) are empty here; [`Db::company`] gives the full wire record.
    pub fn company_row(&self, domain: &str) -> Option<&CompanyRow> {
        self.company_index(domain)
            .map(|i| &self.companies[i as usize])
    }

    /// The stored (slim, see [`Db::company_row`]) company row at a company index
    /// (`0..company_count()`), if in range.
    pub fn company_row_at(&self, index: usize) -> Option<&CompanyRow> {
        self.companies.get(index)
    }

    /// The company index of a domain or alias.
    pub(crate) fn company_index(&self, domain: &str) -> Option<u32> {
        self.company_index_normalized(&crate::engine::normalize_domain(domain))
    }

    /// [`Db::company_index`] of a domain already normalized by
    /// [`normalize_domain`](crate::engine::normalize_domain).
    pub(crate) fn company_index_normalized(&self, domain: &str) -> Option<u32> {
        [&self.index, &self.gathered.index]
            .into_iter()
            .find_map(|ix| {
                ix.domains
                    .get(domain)
                    .or_else(|| ix.aliases.get(domain))
                    .copied()
            })
    }

    /// The reference data of the dataset.
    pub fn reference(&self) -> &Reference {
        &self.reference
    }

    /// The autocomplete indexes of the dataset's companies and vocabularies, built on the
    /// first call (about a third of the load's work, so loading leaves them out); a call while
    /// another thread builds them waits for that build.
    pub fn autocompletes(&self) -> &Autocompletes {
        self.ac.get_or_init(|| {
            Autocompletes::build(
                self.companies.base(),
                &self.reference,
                &self.vocab,
                &self.people,
                self.cols.base(),
            )
        })
    }
}

/// The embedded asset split into frames with its header decoded ([`Db::open_embedded`]).
/// Cheap to clone (the frames are borrowed from the binary).
#[derive(Clone)]
pub struct OpenedAsset {
    /// Frame 0 (the header), then the company frames.
    frames: Vec<&'static [u8]>,
    /// Company frames and companies the header announces.
    company_frames: u32,
    companies: u32,
    /// The header's reference data, shared with the [`Db`] it becomes.
    reference: Arc<Reference>,
    phases: Phases,
}

impl std::fmt::Debug for OpenedAsset {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenedAsset")
            .field("company_frames", &self.company_frames)
            .field("companies", &self.companies)
            .finish_non_exhaustive()
    }
}

impl OpenedAsset {
    /// The reference data of the asset (the same `Arc` the indexed [`Db`] keeps).
    pub fn reference(&self) -> &Arc<Reference> {
        &self.reference
    }

    /// Decompresses, parses and indexes the company frames: the [`Db`], and how long each
    /// load phase took (the header's phase first), in order.
    ///
    /// Errors when a frame cannot be decompressed or parsed, or the asset holds fewer frames or
    /// companies than its header announces.
    pub fn index(self) -> anyhow::Result<(Db, Vec<(&'static str, std::time::Duration)>)> {
        let OpenedAsset {
            frames,
            company_frames,
            companies,
            reference,
            mut phases,
        } = self;
        prospect_common::alloc::begin_bulk_load();
        // The company frames are independent: decompress them on every core, then parse them
        // on every core (strings stay borrowed from the buffers while indexing; only what the
        // engine keeps is copied).
        let buffers = crate::engine::par_map(&frames[1..], |f| decompress_frame(f))
            .into_iter()
            .collect::<anyhow::Result<Vec<Vec<u8>>>>()?;
        phases.mark("decompress (parallel)");
        let parsed =
            crate::engine::par_map(&buffers, |b| postcard::from_bytes::<Vec<RowView<'_>>>(b));
        let mut views: Vec<RowView<'_>> = Vec::with_capacity(companies as usize);
        for (i, part) in parsed.into_iter().enumerate() {
            views.extend(part.with_context(|| {
                format!("parsing company frame {} of assets/{DATASET_FILE}", i + 1)
            })?);
        }
        check_counts((company_frames, companies), frames.len() - 1, views.len())?;
        phases.mark("parse (parallel)");
        let db = Db::build(&views, reference, &mut phases);
        drop(views);
        drop(buffers);
        prospect_common::alloc::end_bulk_load();
        phases.mark("drop temporaries");
        Ok((db, phases.done))
    }
}

/// Most companies [`OpenedAsset::subset`] reads: a request naming more is answered from the
/// whole dataset.
pub const SUBSET_MAX_COMPANIES: usize = 100;

/// Most company frames [`OpenedAsset::subset`] decompresses (each ~8 MB, ~10 ms): a request
/// whose companies lie in more frames is answered from the whole dataset.
pub const SUBSET_MAX_FRAMES: usize = 2;

/// Bytes of a company frame decompressed to read its first domain (the frame's
/// `Vec<CompanyRow>` length, then the first row's domain; domains are far shorter).
const FIRST_DOMAIN_PREFIX: u64 = 512;

impl OpenedAsset {
    /// A database of just the dataset's companies whose domains are `domains` (normalized by
    /// [`normalize_domain`](crate::engine::normalize_domain), primary domains, not
    /// aliases), read from the one or two company frames that hold them, without indexing the
    /// rest (issue 18, "Embedded start": a CLI lookup answers in a few tens of milliseconds
    /// instead of waiting for the whole load). Its records of those companies are the same as
    /// the whole dataset's ([`crate::engine::records::company`] reads only the
    /// company's own row and columns).
    ///
    /// `Ok(None)` when the subset cannot answer alone: a domain is not a primary domain of the
    /// dataset (an alias, a company to gather, not a domain), or the request names more than
    /// [`SUBSET_MAX_COMPANIES`] companies or spans more than [`SUBSET_MAX_FRAMES`] frames.
    /// Errors when a frame cannot be decompressed or parsed (a damaged asset).
    pub fn subset(&self, domains: &[String]) -> anyhow::Result<Option<Db>> {
        self.subset_within(domains, SUBSET_MAX_FRAMES)
    }

    /// [`OpenedAsset::subset`] reading at most `max_frames` frames (tests read more).
    pub(crate) fn subset_within(
        &self,
        domains: &[String],
        max_frames: usize,
    ) -> anyhow::Result<Option<Db>> {
        let mut wanted: Vec<&str> = domains.iter().map(String::as_str).collect();
        wanted.sort_unstable();
        wanted.dedup();
        if wanted.is_empty() || wanted.len() > SUBSET_MAX_COMPANIES {
            return Ok(None);
        }
        let company_frames = &self.frames[1..];
        let firsts = company_frames
            .iter()
            .map(|f| first_domain(f))
            .collect::<anyhow::Result<Vec<String>>>()?;
        // Frames are in domain order: a domain can only be in the last frame starting at or
        // before it.
        let mut by_frame: std::collections::BTreeMap<usize, Vec<&str>> = Default::default();
        for d in wanted {
            let Some(k) = firsts.partition_point(|f| f.as_str() <= d).checked_sub(1) else {
                return Ok(None);
            };
            by_frame.entry(k).or_default().push(d);
        }
        if by_frame.len() > max_frames {
            return Ok(None);
        }
        let buffers = by_frame
            .keys()
            .map(|&k| decompress_frame(company_frames[k]))
            .collect::<anyhow::Result<Vec<Vec<u8>>>>()?;
        let mut views: Vec<RowView<'_>> = Vec::new();
        for ((k, ds), buf) in by_frame.iter().zip(&buffers) {
            let rows: Vec<RowView<'_>> = postcard::from_bytes(buf).with_context(|| {
                format!("parsing company frame {} of assets/{DATASET_FILE}", k + 1)
            })?;
            for d in ds {
                match rows.binary_search_by(|r| r.domain.cmp(d)) {
                    Ok(i) => views.push(rows[i].clone()),
                    Err(_) => return Ok(None),
                }
            }
        }
        Ok(Some(Db::build(
            &views,
            self.reference.clone(),
            &mut Phases::new(),
        )))
    }
}

/// The domain of the first company of a company frame, from the frame's first few hundred
/// decompressed bytes. Errors when they cannot be decompressed or do not start as a
/// `Vec<CompanyRow>` does.
fn first_domain(frame: &[u8]) -> anyhow::Result<String> {
    use std::io::Read;
    let context = || format!("reading a company frame of assets/{DATASET_FILE}");
    let mut head = Vec::with_capacity(FIRST_DOMAIN_PREFIX as usize);
    zstd::stream::read::Decoder::with_buffer(frame)
        .with_context(context)?
        .take(FIRST_DOMAIN_PREFIX)
        .read_to_end(&mut head)
        .with_context(context)?;
    // The row count (a varint, as every postcard length), then the first row's domain.
    let (_, rest) = postcard::take_from_bytes::<u64>(&head).with_context(context)?;
    let (domain, _) = postcard::take_from_bytes::<&str>(rest).with_context(context)?;
    Ok(domain.to_string())
}

/// Wall-clock times of the load phases.
#[derive(Clone)]
struct Phases {
    last: std::time::Instant,
    done: Vec<(&'static str, std::time::Duration)>,
}

impl Phases {
    fn new() -> Phases {
        Phases {
            last: std::time::Instant::now(),
            done: Vec::new(),
        }
    }
    /// Ends the current phase.
    fn mark(&mut self, name: &'static str) {
        let now = std::time::Instant::now();
        self.done.push((name, now - self.last));
        self.last = now;
    }
    /// Records a time measured elsewhere (a thread of a parallel phase).
    fn extra(&mut self, name: &'static str, d: std::time::Duration) {
        self.done.push((name, d));
    }
}

/// Splits an asset into its zstd frames (see [`super::format`]); errors when it holds none or
/// its bytes end inside a frame.
fn split_frames(mut bytes: &[u8]) -> anyhow::Result<Vec<&[u8]>> {
    let mut frames = Vec::new();
    while !bytes.is_empty() {
        let n = zstd::zstd_safe::find_frame_compressed_size(bytes).map_err(|code| {
            anyhow::anyhow!(
                "assets/{DATASET_FILE}: frame {} is not a whole zstd frame ({})",
                frames.len(),
                zstd::zstd_safe::get_error_name(code)
            )
        })?;
        let (frame, rest) = bytes.split_at(n);
        frames.push(frame);
        bytes = rest;
    }
    if frames.is_empty() {
        bail!("assets/{DATASET_FILE} is empty");
    }
    Ok(frames)
}

/// Decompresses one zstd frame into a buffer of the exact size its header declares (no growing
/// and copying of a large buffer); falls back to streaming when the size is not there.
fn decompress_frame(frame: &[u8]) -> anyhow::Result<Vec<u8>> {
    let context = || format!("decompressing assets/{DATASET_FILE}");
    match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(size)) if size <= MAX_FRAME_SIZE => {
            zstd::bulk::decompress(frame, size as usize).with_context(context)
        }
        _ => zstd::stream::decode_all(frame).with_context(context),
    }
}

/// Largest decompressed frame the loader allocates up front for (bytes); the real ones are
/// about 8 MB.
const MAX_FRAME_SIZE: u64 = 1 << 30;

/// Decompresses and parses frame 0; refuses another [`FORMAT_VERSION`] before parsing the rest.
fn decode_header(frame: &[u8]) -> anyhow::Result<Header> {
    let raw = decompress_frame(frame)?;
    // The version is the first field: check it alone first, so an asset of another format
    // gives a clear error rather than a parse failure.
    let (version, _) = postcard::take_from_bytes::<u32>(&raw)
        .with_context(|| format!("reading the version of assets/{DATASET_FILE}"))?;
    if version != FORMAT_VERSION {
        bail!(
            "assets/{DATASET_FILE} has format version {version}, this build reads version \
             {FORMAT_VERSION}: rebuild the dataset"
        );
    }
    postcard::from_bytes(&raw)
        .with_context(|| format!("parsing the header of assets/{DATASET_FILE}"))
}

/// Errors unless the asset has as many company frames and companies as its header says.
/// `announced` is the header's (company frames, companies).
fn check_counts(announced: (u32, u32), frames: usize, companies: usize) -> anyhow::Result<()> {
    if frames != announced.0 as usize || companies != announced.1 as usize {
        bail!(
            "assets/{DATASET_FILE} is truncated or damaged: its header announces {} company \
             frames and {} companies, it holds {frames} and {companies}",
            announced.0,
            announced.1
        );
    }
    Ok(())
}

/// Decompresses and parses a whole asset into an owned [`Dataset`] (the build's self-check and
/// tests); refuses another [`FORMAT_VERSION`] and truncated assets.
pub fn decode(bytes: &[u8]) -> anyhow::Result<Dataset> {
    let frames = split_frames(bytes)?;
    let header = decode_header(frames[0])?;
    let mut companies: Vec<CompanyRow> = Vec::with_capacity(header.companies as usize);
    for (i, frame) in frames[1..].iter().enumerate() {
        let raw = decompress_frame(frame)?;
        let part: Vec<CompanyRow> = postcard::from_bytes(&raw)
            .with_context(|| format!("parsing company frame {} of assets/{DATASET_FILE}", i + 1))?;
        companies.extend(part);
    }
    check_counts(
        (header.company_frames, header.companies),
        frames.len() - 1,
        companies.len(),
    )?;
    Ok(Dataset {
        version: header.version,
        companies,
        reference: header.reference,
    })
}

/// Serializes and compresses a dataset the way the asset is stored, each frame at zstd `level`
/// (the build uses 19, tests 3).
pub fn encode(ds: &Dataset, level: i32) -> anyhow::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut c = zstd::bulk::Compressor::new(level).context("starting zstd")?;
    for frame in postcard_frames(ds).context("serializing the dataset")? {
        out.extend(c.compress(&frame).context("compressing the dataset")?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_other_versions() {
        let ds = Dataset {
            version: FORMAT_VERSION + 1,
            ..Default::default()
        };
        let err = decode(&encode(&ds, 3).unwrap()).unwrap_err().to_string();
        assert!(err.contains("format version"), "{err}");
        let ok = Dataset {
            version: FORMAT_VERSION,
            ..Default::default()
        };
        assert_eq!(
            decode(&encode(&ok, 3).unwrap()).unwrap().version,
            FORMAT_VERSION
        );
    }

    /// Companies survive the frame split in order; a cut asset or a missing frame is refused
    /// with an error that says so.
    #[test]
    fn frames_round_trip_and_damage_is_named() {
        use crate::dataset::format::COMPANIES_PER_FRAME;
        let ds = Dataset {
            version: FORMAT_VERSION,
            companies: (0..COMPANIES_PER_FRAME + 3)
                .map(|i| CompanyRow {
                    domain: format!("c{i}.com"),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        };
        let bytes = encode(&ds, 1).unwrap();
        let back = decode(&bytes).unwrap();
        assert_eq!(back.companies.len(), COMPANIES_PER_FRAME + 3);
        assert_eq!(back.companies[COMPANIES_PER_FRAME + 2].domain, "c5002.com");
        let frames = split_frames(&bytes).unwrap();
        assert_eq!(frames.len(), 3);
        let cut = decode(&bytes[..bytes.len() - 5]).unwrap_err().to_string();
        assert!(cut.contains("not a whole zstd frame"), "{cut}");
        let missing = bytes.len() - frames[2].len();
        let short = decode(&bytes[..missing]).unwrap_err().to_string();
        assert!(short.contains("truncated or damaged"), "{short}");
    }
}
