//! The people side of filter evaluation: a [`PeopleQuery`] (titles, seniorities,
//! departments, skills, keywords, names, texts and the fields a person has) and the lowercase
//! texts of a person and their company it reads.

use super::*;

/// A set over the title vocabulary (bit per title index).
#[derive(Debug, Clone)]
pub struct TitleSet(pub Vec<u64>);

impl TitleSet {
    /// The titles for which `f(lowercase title)` holds.
    pub fn from_fn(db: &Db, f: impl Fn(&str) -> bool) -> TitleSet {
        let n = db.people.titles.len();
        let mut bits = vec![0u64; n.div_ceil(64)];
        for (i, t) in db.people.titles.iter().enumerate() {
            if f(&t.lower) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        TitleSet(bits)
    }
    /// Membership.
    pub fn contains(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
}

/// A set of small ids (indexes of `People::skills`) as a bitmap.
#[derive(Debug, Clone, Default)]
pub struct IdSet(pub Vec<u64>);

impl IdSet {
    /// The indexes `i` of `items` for which `f(items[i])` holds.
    pub fn from_fn<T>(items: &[T], f: impl Fn(&T) -> bool) -> IdSet {
        let mut bits = vec![0u64; items.len().div_ceil(64)];
        for (i, x) in items.iter().enumerate() {
            if f(x) {
                bits[i / 64] |= 1 << (i % 64);
            }
        }
        IdSet(bits)
    }
    /// Membership.
    pub fn contains(&self, i: u32) -> bool {
        self.0
            .get(i as usize / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }
    /// `true` when one of `ids` is in the set.
    pub fn any_of(&self, ids: &[u32]) -> bool {
        ids.iter().any(|&i| self.contains(i))
    }
}

/// A skills condition (v3 `skills`): per lowercase needle, the skills whose lowercase name
/// contains it, so a person is matched by looking up its skill ids, with no text work.
#[derive(Debug, Clone, Default)]
pub struct SkillPred {
    /// The skills matching at least one `anyOf` needle: one of them is required.
    pub any: Option<IdSet>,
    /// Per `allOf` needle, the skills matching it: one of each is required.
    pub all: Vec<IdSet>,
    /// The skills matching at least one `noneOf` needle: none is allowed.
    pub none: Option<IdSet>,
}

impl SkillPred {
    /// `true` when it has no needle.
    pub fn is_empty(&self) -> bool {
        self.any.is_none() && self.all.is_empty() && self.none.is_none()
    }
    /// Whether a person with these skill ids satisfies the condition.
    pub fn matches(&self, skills: &[u32]) -> bool {
        self.any.as_ref().is_none_or(|s| s.any_of(skills))
            && self.all.iter().all(|s| s.any_of(skills))
            && !self.none.as_ref().is_some_and(|s| s.any_of(skills))
    }
}

/// One v2 people `keywords` needle: it matches a person whose title or one of whose skills
/// contains it (lowercase), or whose company has it as a keyword.
#[derive(Debug, Clone)]
pub struct KeywordPred {
    /// Titles containing the needle.
    pub titles: TitleSet,
    /// Skills containing the needle.
    pub skills: IdSet,
    /// The company keyword id equal to the needle, if any.
    pub company_keyword: Option<u32>,
}

/// A text condition over generated person texts (descriptions, summary): lowercase needles.
#[derive(Debug, Clone, Default)]
pub struct TextPred {
    /// At least one must occur.
    pub any: Vec<String>,
    /// All must occur.
    pub all: Vec<String>,
    /// None may occur.
    pub none: Vec<String>,
}

impl TextPred {
    /// Whether `hay` (lowercase) satisfies the condition.
    pub fn matches(&self, hay: &str) -> bool {
        (self.any.is_empty() || self.any.iter().any(|n| hay.contains(n.as_str())))
            && self.all.iter().all(|n| hay.contains(n.as_str()))
            && !self.none.iter().any(|n| hay.contains(n.as_str()))
    }
    /// `true` when it has no needle.
    pub fn is_empty(&self) -> bool {
        self.any.is_empty() && self.all.is_empty() && self.none.is_empty()
    }
}

/// Which generated text a [`TextPred`] reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TextField {
    /// `currentJobDescription`.
    CurrentJob,
    /// Descriptions of all experiences.
    AllJobs,
    /// `summary` (profile description).
    Profile,
}

/// A person name condition: a query matches when its words are the person's first and/or
/// last name (case-insensitive; `"john doe"`, `"doe"`, `"john"`).
#[derive(Debug, Clone)]
pub struct NamePred {
    /// Per query: (first-name pool ids, last-name pool ids) acceptable; a person matches a query
    /// when (first in set A or A empty) and (last in set B or B empty).
    pub queries: Vec<(Vec<u32>, Vec<u32>)>,
}

/// A compiled people filter block.
#[derive(Debug, Clone, Default)]
pub struct PeopleQuery {
    /// Only these people (sorted person indexes).
    pub include: Option<Vec<u32>>,
    /// Never these people (sorted).
    pub exclude: Vec<u32>,
    /// Bit `i` = `Seniority::ALL[i]` allowed.
    pub seniorities: Option<u32>,
    /// Bit `i` = `Department::ALL[i]` allowed.
    pub departments: Option<u32>,
    /// Departments excluded (mask).
    pub exclude_departments: u32,
    /// Title must be in each of these sets.
    pub titles_all: Vec<TitleSet>,
    /// Title must be in none of these sets.
    pub titles_none: Vec<TitleSet>,
    /// Country ids (any of) of the person.
    pub countries: Option<Vec<u32>>,
    /// Country ids excluded.
    pub exclude_countries: Vec<u32>,
    /// Region ids (any of).
    pub regions: Option<Vec<u32>>,
    /// Region ids excluded.
    pub exclude_regions: Vec<u32>,
    /// Cities (any of).
    pub cities: Option<Vec<CityPred>>,
    /// Cities excluded.
    pub exclude_cities: Vec<CityPred>,
    /// Names.
    pub names: Option<NamePred>,
    /// v2 `keywords`: each needle (lowercase) must occur in the title, a skill, or a company keyword.
    pub keywords: Vec<KeywordPred>,
    /// Skills: (any, all, none), lowercase needles matched as substrings of skill names.
    pub skills: SkillPred,
    /// Text conditions on generated texts.
    pub texts: Vec<(TextField, TextPred)>,
    /// Bits of [`PERSON_EXIST_FIELDS`] that must be present.
    pub fields_exist: u32,
    /// Bits that must be absent.
    pub fields_not_exist: u32,
    /// Current position started in or after this `yyyymm` (month granularity).
    pub changed_after: Option<u32>,
    /// Current position started before this `yyyymm`.
    pub changed_before: Option<u32>,
    /// Connections range.
    pub connections: Option<FromTo>,
    /// Profile updated within this many months.
    pub updated_within: Option<i64>,
    /// Followers range.
    pub followers: Option<FromTo>,
    /// Matches nothing.
    pub never: bool,
}

/// Person field names of `fieldsExist` (openapi `PeopleFilters.fieldsExist`), bit = position.
pub const PERSON_EXIST_FIELDS: &[&str] = prospect_api::types::PERSON_FILTER_FIELDS;

/// The bit of a person field name of `fieldsExist`.
pub fn person_field_bit(name: &str) -> Option<u32> {
    PERSON_EXIST_FIELDS
        .iter()
        .position(|f| *f == name)
        .map(|p| 1 << p)
}

/// Which person fields a generated person has: all but `photo` (the sandbox has no photos);
/// `state` and `location` depend on the company's HQ.
pub fn person_fields(db: &Db, p: &PersonRow) -> u32 {
    let mut bits = 0;
    for (i, f) in PERSON_EXIST_FIELDS.iter().enumerate() {
        let present = match *f {
            "photo" => false,
            "country" => !db.companies[p.company as usize].country.is_empty(),
            _ => true,
        };
        if present {
            bits |= 1 << i;
        }
    }
    bits
}

impl PeopleQuery {
    /// `true` when the query has no condition.
    pub fn is_empty(&self) -> bool {
        self.include.is_none()
            && self.exclude.is_empty()
            && self.seniorities.is_none()
            && self.departments.is_none()
            && self.exclude_departments == 0
            && self.titles_all.is_empty()
            && self.titles_none.is_empty()
            && self.countries.is_none()
            && self.exclude_countries.is_empty()
            && self.regions.is_none()
            && self.exclude_regions.is_empty()
            && self.cities.is_none()
            && self.exclude_cities.is_empty()
            && self.names.is_none()
            && self.keywords.is_empty()
            && self.skills.is_empty()
            && self.texts.is_empty()
            && self.fields_exist == 0
            && self.fields_not_exist == 0
            && self.changed_after.is_none()
            && self.changed_before.is_none()
            && self.connections.is_none()
            && self.updated_within.is_none()
            && self.followers.is_none()
            && !self.never
    }

    /// `true` when person `pi` satisfies every condition. `buf` is scratch space.
    pub fn matches(&self, db: &Db, pi: u32, buf: &mut Scratch) -> bool {
        if self.never {
            return false;
        }
        let p = &db.person_rows[pi as usize];
        if let Some(inc) = &self.include
            && inc.binary_search(&pi).is_err()
        {
            return false;
        }
        if !self.exclude.is_empty() && self.exclude.binary_search(&pi).is_ok() {
            return false;
        }
        if let Some(m) = self.seniorities
            && m & (1 << p.seniority) == 0
        {
            return false;
        }
        if let Some(m) = self.departments
            && m & (1 << p.department) == 0
        {
            return false;
        }
        if self.exclude_departments & (1 << p.department) != 0 {
            return false;
        }
        if !self.titles_all.iter().all(|t| t.contains(p.title)) {
            return false;
        }
        if self.titles_none.iter().any(|t| t.contains(p.title)) {
            return false;
        }
        let c = &db.cols[p.company as usize];
        if let Some(cs) = &self.countries
            && !cs.contains(&c.country)
        {
            return false;
        }
        if self.exclude_countries.contains(&c.country) {
            return false;
        }
        if let Some(rs) = &self.regions
            && (c.region == NONE || !rs.contains(&c.region))
        {
            return false;
        }
        if c.region != NONE && self.exclude_regions.contains(&c.region) {
            return false;
        }
        if let Some(cs) = &self.cities
            && !cs.iter().any(|q| city_matches(db, p.company, c, q))
        {
            return false;
        }
        if self
            .exclude_cities
            .iter()
            .any(|q| city_matches(db, p.company, c, q))
        {
            return false;
        }
        if let Some(n) = &self.names
            && !n.queries.iter().any(|(f, l)| {
                (f.is_empty() || f.contains(&p.first)) && (l.is_empty() || l.contains(&p.last))
            })
        {
            return false;
        }
        if self.fields_exist != 0 || self.fields_not_exist != 0 {
            let f = person_fields(db, p);
            if f & self.fields_exist != self.fields_exist || f & self.fields_not_exist != 0 {
                return false;
            }
        }
        if let Some(a) = self.changed_after
            && p.started < a
        {
            return false;
        }
        if let Some(b) = self.changed_before
            && p.started >= b
        {
            return false;
        }
        if let Some(r) = &self.connections
            && !r.contains(db.people.connections(p))
        {
            return false;
        }
        if let Some(r) = &self.followers
            && !r.contains(db.people.followers(p))
        {
            return false;
        }
        if let Some(n) = self.updated_within
            && crate::engine::people::updated_months_ago(p) as i64 >= n
        {
            return false;
        }
        if !self.skills.is_empty() || !self.keywords.is_empty() {
            db.people.skill_ids(p, &mut buf.skills);
            if !self.skills.matches(&buf.skills) {
                return false;
            }
            let ok = self.keywords.iter().all(|k| {
                k.titles.contains(p.title)
                    || k.skills.any_of(&buf.skills)
                    || k.company_keyword
                        .is_some_and(|id| c.keywords.binary_search(&id).is_ok())
            });
            if !ok {
                return false;
            }
        }
        if !self.texts.is_empty() {
            // The text budget of the request (engine `caps`): past it, nobody matches.
            let reads: usize = self
                .texts
                .iter()
                .map(|(f, _)| match f {
                    TextField::AllJobs => p.n_exp.max(1) as usize,
                    _ => 1,
                })
                .sum();
            if buf.text_reads + reads > crate::engine::caps::TEXT_READS {
                return false;
            }
            buf.text_reads += reads;
        }
        for (field, t) in &self.texts {
            buf.text.clear();
            lower_text(db, p, *field, &mut buf.text, &mut buf.companies);
            if !t.matches(&buf.text) {
                return false;
            }
        }
        true
    }
}

/// Reusable scratch buffers for person matching (one per request).
#[derive(Debug, Default)]
pub struct Scratch {
    /// Skill ids.
    pub skills: Vec<u32>,
    /// Text.
    pub text: String,
    /// The lowercase text pieces of the companies seen so far.
    companies: FastMap<u32, CompanyText>,
    /// Generated texts read so far (see `caps::TEXT_READS`).
    text_reads: usize,
}

/// The lowercase pieces of a company's part in its people's generated texts.
#[derive(Debug, Clone)]
struct CompanyText {
    /// Name.
    name: String,
    /// First industry.
    industry: Option<String>,
    /// `, with a focus on <kw1> and <kw2>` (empty without keywords).
    focus: String,
}

impl CompanyText {
    fn of(db: &Db, ci: u32) -> CompanyText {
        let mut desc = String::new();
        let c = &db.cols[ci as usize];
        let kws: Vec<&str> = c
            .keywords_ord
            .iter()
            .take(2)
            .map(|&k| db.vocab.keywords.name(k))
            .collect();
        if !kws.is_empty() {
            desc.push_str(", with a focus on ");
            desc.push_str(&kws.join(" and "));
        }
        CompanyText {
            name: db.companies[ci as usize].name.to_lowercase(),
            industry: c
                .industries_ord
                .first()
                .map(|&i| db.vocab.industries.name(i).to_lowercase()),
            focus: desc.to_lowercase(),
        }
    }
}

/// Writes the generated text `field` of person `p` in lowercase into `out`: the same text as
/// [`crate::engine::records`] writes, lowercased, built from pieces lowercased once per title (the
/// title vocabulary's `lower`), once per company and request (`cache`), and the skill
/// vocabulary's `skills_lower`, so a text filter over many people does no formatting and no
/// case conversion per person.
fn lower_text(
    db: &Db,
    p: &PersonRow,
    field: TextField,
    out: &mut String,
    cache: &mut FastMap<u32, CompanyText>,
) {
    use std::fmt::Write as _;
    let title = &db.people.titles[p.title as usize].lower;
    match field {
        TextField::CurrentJob => {
            let c = cache
                .entry(p.company)
                .or_insert_with(|| CompanyText::of(db, p.company));
            out.push_str(title);
            out.push_str(" at ");
            out.push_str(&c.name);
            out.push_str(", working in ");
            out.push_str(DEPARTMENTS_LOWER[p.department as usize % DEPARTMENTS_LOWER.len()]);
            out.push_str(" for a company in ");
            out.push_str(c.industry.as_deref().unwrap_or("its market"));
            out.push_str(&c.focus);
            out.push('.');
        }
        TextField::Profile => {
            let c = cache
                .entry(p.company)
                .or_insert_with(|| CompanyText::of(db, p.company));
            out.push_str(title);
            let _ = write!(out, " with {} years of experience in ", 3 + (p.seed % 25));
            out.push_str(c.industry.as_deref().unwrap_or("business"));
            out.push('.');
            let n = (p.n_skills as usize).min(3);
            if n > 0 {
                out.push_str(" skilled in ");
                for (i, s) in p.skills[..n].iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(&db.people.skills_lower[*s as usize]);
                }
                out.push('.');
            }
            let sen = SENIORITIES_LOWER[p.seniority as usize % SENIORITIES_LOWER.len()];
            if sen != "other" {
                out.push(' ');
                out.push_str(sen);
                out.push_str("-level leader.");
            }
        }
        TextField::AllJobs => {
            for e in db.people.experiences(db.companies.base_len(), p) {
                let c = cache
                    .entry(e.company)
                    .or_insert_with(|| CompanyText::of(db, e.company));
                out.push_str(&db.people.titles[e.title as usize].lower);
                out.push_str(" at ");
                out.push_str(&c.name);
                if let Some(ind) = &c.industry {
                    out.push_str(" (");
                    out.push_str(ind);
                    out.push(')');
                }
                out.push_str(".\n");
            }
        }
    }
}

/// `Department::ALL` in lowercase, same order.
const DEPARTMENTS_LOWER: [&str; 24] = [
    "accounting and finance",
    "board",
    "business support",
    "customer relations",
    "design",
    "editorial personnel",
    "engineering",
    "founder/owner",
    "healthcare",
    "hr",
    "legal",
    "management",
    "manufacturing",
    "marketing and advertising",
    "operations",
    "pr and communications",
    "procurement",
    "product",
    "quality control",
    "r&d",
    "sales",
    "security",
    "supply chain",
    "other",
];

/// `Seniority::ALL` in lowercase, same order.
const SENIORITIES_LOWER: [&str; 10] = [
    "owner",
    "founder",
    "board member",
    "c-level",
    "partner",
    "vp",
    "head",
    "director",
    "manager",
    "other",
];

/// Months between two `yyyymm` values (`b - a`).
pub fn months_between(a: u32, b: u32) -> i32 {
    ym_to_months(b) - ym_to_months(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use prospect_api::types::common::{Department, Seniority, WireEnum};

    /// The lowercase texts the text filters read are the records' texts, lowercased.
    #[test]
    fn lower_texts_are_the_records_texts() {
        let db = crate::engine::testdata::db();
        for (d, l) in Department::ALL.iter().zip(DEPARTMENTS_LOWER) {
            assert_eq!(d.as_str().to_lowercase(), l);
        }
        for (s, l) in Seniority::ALL.iter().zip(SENIORITIES_LOWER) {
            assert_eq!(s.as_str().to_lowercase(), l);
        }
        let mut cache = FastMap::default();
        for p in db.person_rows.iter() {
            let mut want = String::new();
            crate::engine::records::current_job_description(&db, p, &mut want);
            let mut got = String::new();
            lower_text(&db, p, TextField::CurrentJob, &mut got, &mut cache);
            assert_eq!(got, want.to_lowercase());
            want.clear();
            crate::engine::records::summary(&db, p, &mut want);
            got.clear();
            lower_text(&db, p, TextField::Profile, &mut got, &mut cache);
            assert_eq!(got, want.to_lowercase());
            want.clear();
            for e in db.people.experiences(db.companies.base_len(), p) {
                crate::engine::records::experience_description(&db, &e, &mut want);
                want.push('\n');
            }
            got.clear();
            lower_text(&db, p, TextField::AllJobs, &mut got, &mut cache);
            assert_eq!(got, want.to_lowercase());
        }
    }
}
