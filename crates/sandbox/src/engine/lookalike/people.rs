//! Lookalike scoring of people (v3 `lookalikeLinkedinHandles`): department, seniority, title
//! words and their companies' similarity.

use super::*;

pub(super) fn title_words(db: &Db, p: &PersonRow) -> Vec<u64> {
    let mut w: Vec<u64> = db.people.titles[p.title as usize]
        .lower
        .split(|c: char| !c.is_alphanumeric())
        .filter(|s| s.len() > 2)
        .map(crate::engine::hash_str)
        .collect();
    w.sort_unstable();
    w.dedup();
    w
}

/// Lookalike score (`0..=1`) of person `p` against target people (module formula).
pub fn person_score(db: &Db, p: u32, targets: &[u32]) -> f64 {
    PersonTargets::new(db, targets).score(db, p)
}

/// The target people of one search, prepared for scoring many candidates: their title words
/// once, and the candidates' title words once per title.
#[derive(Debug)]
pub struct PersonTargets {
    targets: Vec<(u32, Vec<u64>)>,
    /// Per candidate title, `0.35·[same department] + 0.25·[same seniority] + 0.15·J(title
    /// words)` against each target (department and seniority come with the title).
    by_title: crate::engine::FastMap<u32, Vec<f64>>,
    /// The target people's companies.
    companies: TargetSet,
    /// The last candidate company and its `raw` against each target's company.
    last: Option<(u32, Vec<f64>)>,
}

impl PersonTargets {
    /// Prepares the target people (person indexes).
    pub fn new(db: &Db, targets: &[u32]) -> PersonTargets {
        let companies: Vec<u32> = targets
            .iter()
            .map(|&t| db.person_rows[t as usize].company)
            .collect();
        PersonTargets {
            targets: targets
                .iter()
                .map(|&t| (t, title_words(db, &db.person_rows[t as usize])))
                .collect(),
            by_title: crate::engine::FastMap::default(),
            companies: TargetSet::new(db, &companies),
            last: None,
        }
    }

    /// Lookalike score (`0..=1`) of person `p` (module formula, same value as
    /// [`person_score`]).
    pub fn score(&mut self, db: &Db, p: u32) -> f64 {
        let pr = &db.person_rows[p as usize];
        // Candidates come grouped by company: their company's similarities are kept.
        if self.last.as_ref().is_none_or(|(c, _)| *c != pr.company) {
            let mut raws = self.last.take().map(|(_, r)| r).unwrap_or_default();
            self.companies.raws(db, pr.company, &mut raws);
            self.last = Some((pr.company, raws));
        }
        let company_raws = self.last.as_ref().map(|(_, r)| r.as_slice()).unwrap_or(&[]);
        let targets = &self.targets;
        let title_part = self.by_title.entry(pr.title).or_insert_with(|| {
            let pw = title_words(db, pr);
            targets
                .iter()
                .map(|(t, tw)| {
                    let tr = &db.person_rows[*t as usize];
                    let common = pw.iter().filter(|x| tw.contains(x)).count();
                    let union = pw.len() + tw.len() - common;
                    let jt = if union == 0 {
                        0.0
                    } else {
                        common as f64 / union as f64
                    };
                    0.35 * f64::from(pr.department == tr.department)
                        + 0.25 * f64::from(pr.seniority == tr.seniority)
                        + 0.15 * jt
                })
                .collect()
        });
        score_of(combine(
            title_part
                .iter()
                .zip(company_raws)
                .map(|(part, raw)| part + 0.25 * raw),
        ))
    }
}
