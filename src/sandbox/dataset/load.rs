//! Loads the dataset into memory and indexes it: [`Db`].
//!
//! `Db::load_embedded()` decodes the asset compiled into the binary
//! (`assets/dataset.postcard.zst`: zstd, then postcard, see [`super::format`]); `Db::from_dataset`
//! indexes any [`Dataset`] (tests build tiny ones by hand). Indexing interns repeated strings,
//! builds compact per-company columns, the domain/alias/handle maps, the autocomplete
//! structures, and generates the synthetic people (see [`crate::sandbox::engine`]).

use anyhow::{Context, bail};

use super::format::{CompanyRow, DATASET_FILE, Dataset, FORMAT_VERSION, Reference};
use crate::sandbox::engine::autocomplete::Autocompletes;
use crate::sandbox::engine::index::{self, CompanyCols, Index, RowView, Vocab};
use crate::sandbox::engine::people::People;

/// The dataset asset as compiled into the binary.
static EMBEDDED: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/assets/dataset.postcard.zst"
));

/// The loaded, indexed sandbox dataset: ~40,000 companies, their generated people, the
/// reference data, and the indexes the engine's searches run on. Immutable once built; share it
/// with `Arc<Db>`. The query methods live in [`crate::sandbox::engine`].
pub struct Db {
    /// Companies as stored in the asset (index = company index).
    pub(crate) companies: Vec<CompanyRow>,
    /// Reference data (SPEC.md §2.8 and the autocomplete vocabularies).
    pub(crate) reference: Reference,
    /// Interned vocabularies.
    pub(crate) vocab: Vocab,
    /// Compact per-company columns (index = company index).
    pub(crate) cols: Vec<CompanyCols>,
    /// Domain, alias, handle and name maps.
    pub(crate) index: Index,
    /// Generated people.
    pub(crate) people: People,
    /// Autocomplete structures.
    pub(crate) ac: Autocompletes,
}

impl std::fmt::Debug for Db {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Db")
            .field("companies", &self.companies.len())
            .field("people", &self.people.rows.len())
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
        let mut phases = Phases::new();
        let raw = decompress(EMBEDDED)?;
        phases.mark("decompress");
        // Strings are borrowed from `raw` while indexing; only what the engine keeps is copied.
        let view: DatasetView<'_> =
            postcard::from_bytes(&raw).with_context(|| format!("parsing assets/{DATASET_FILE}"))?;
        phases.mark("parse");
        let db = Db::build(&view.companies, view.reference, &mut phases);
        drop(view.companies);
        drop(raw);
        phases.mark("drop temporaries");
        Ok((db, phases.done))
    }

    /// Indexes a dataset (any version; used by tests with small hand-made datasets). Companies
    /// are kept in the given order; people are generated deterministically.
    pub fn from_dataset(ds: Dataset) -> Db {
        let views: Vec<RowView<'_>> = ds.companies.iter().map(RowView::of).collect();
        Db::build(&views, ds.reference.clone(), &mut Phases::new())
    }

    /// Indexes borrowed rows: vocabularies and columns, the slim owned rows, people, autocompletes.
    fn build(views: &[RowView<'_>], reference: Reference, phases: &mut Phases) -> Db {
        // The slim owned rows depend on nothing else: build them on their own thread while
        // the columns, key maps, people and autocompletes are built.
        std::thread::scope(|s| {
            let slim = s.spawn(|| {
                let t = std::time::Instant::now();
                let v = views.iter().map(RowView::slim).collect::<Vec<CompanyRow>>();
                (v, t.elapsed())
            });
            let (vocab, mut cols, index) = index::build(views, &reference);
            phases.mark("index (intern, columns, maps)");
            let people_vocab = People::vocab(&reference);
            phases.mark("people vocab");
            // People and autocompletes need the columns; they are independent of each other.
            let ((people, ranges), ac) = std::thread::scope(|s2| {
                let people = s2.spawn(|| {
                    let t = std::time::Instant::now();
                    (people_vocab.clone().generate(views, &cols), t.elapsed())
                });
                let t = std::time::Instant::now();
                let ac = Autocompletes::build(views, &reference, &vocab, &people_vocab, &cols);
                phases.extra("  (thread) autocompletes", t.elapsed());
                let (people, people_time) = people.join().expect("people thread");
                phases.extra("  (thread) people", people_time);
                (people, ac)
            });
            phases.mark("people | autocompletes");
            for (c, r) in cols.iter_mut().zip(ranges) {
                c.people = r;
            }
            let (companies, slim_time) = slim.join().expect("slim rows thread");
            phases.extra("  (thread, from the start) slim rows", slim_time);
            phases.mark("wait for slim rows");
            Db {
                companies,
                reference,
                vocab,
                cols,
                index,
                people,
                ac,
            }
        })
    }

    /// Number of companies.
    pub fn company_count(&self) -> usize {
        self.companies.len()
    }

    /// Number of generated people.
    pub fn person_count(&self) -> usize {
        self.people.rows.len()
    }

    /// The stored company row of a domain or alias (normalized as
    /// [`normalize_domain`](crate::sandbox::engine::normalize_domain) does), if known. The
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
        let d = crate::sandbox::engine::normalize_domain(domain);
        self.index
            .domains
            .get(&d)
            .or_else(|| self.index.aliases.get(&d))
            .copied()
    }

    /// The reference data of the dataset.
    pub fn reference(&self) -> &Reference {
        &self.reference
    }
}

/// Wall-clock times of the load phases.
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

/// The asset parsed with its strings borrowed from the decompressed bytes (same layout as
/// [`Dataset`]).
#[derive(serde::Deserialize)]
struct DatasetView<'a> {
    #[allow(dead_code)]
    version: u32,
    #[serde(borrow)]
    companies: Vec<RowView<'a>>,
    reference: Reference,
}

/// Decompresses an asset and checks its [`FORMAT_VERSION`]; returns the postcard bytes.
fn decompress(bytes: &[u8]) -> anyhow::Result<Vec<u8>> {
    let raw = zstd::stream::decode_all(bytes)
        .with_context(|| format!("decompressing assets/{DATASET_FILE}"))?;
    let (version, _) = postcard::take_from_bytes::<u32>(&raw)
        .with_context(|| format!("reading the version of assets/{DATASET_FILE}"))?;
    if version != FORMAT_VERSION {
        bail!(
            "assets/{DATASET_FILE} has format version {version}, this build reads version \
             {FORMAT_VERSION}: rebuild the dataset"
        );
    }
    Ok(raw)
}

/// Decompresses and parses an asset; refuses another [`FORMAT_VERSION`].
pub fn decode(bytes: &[u8]) -> anyhow::Result<Dataset> {
    let raw = zstd::stream::decode_all(bytes)
        .with_context(|| format!("decompressing assets/{DATASET_FILE}"))?;
    // The version is the first field: check it before parsing the rest, so an asset of
    // another format gives a clear error rather than a parse failure.
    let (version, _) = postcard::take_from_bytes::<u32>(&raw)
        .with_context(|| format!("reading the version of assets/{DATASET_FILE}"))?;
    if version != FORMAT_VERSION {
        bail!(
            "assets/{DATASET_FILE} has format version {version}, this build reads version \
             {FORMAT_VERSION}: rebuild the dataset"
        );
    }
    let ds: Dataset =
        postcard::from_bytes(&raw).with_context(|| format!("parsing assets/{DATASET_FILE}"))?;
    Ok(ds)
}

/// Serializes and compresses a dataset the way the asset is stored (for tests and the build).
pub fn encode(ds: &Dataset) -> anyhow::Result<Vec<u8>> {
    let raw = postcard::to_stdvec(ds).context("serializing the dataset")?;
    zstd::stream::encode_all(&raw[..], 3).context("compressing the dataset")
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
        let err = decode(&encode(&ds).unwrap()).unwrap_err().to_string();
        assert!(err.contains("format version"), "{err}");
        let ok = Dataset {
            version: FORMAT_VERSION,
            ..Default::default()
        };
        assert_eq!(
            decode(&encode(&ok).unwrap()).unwrap().version,
            FORMAT_VERSION
        );
    }
}
