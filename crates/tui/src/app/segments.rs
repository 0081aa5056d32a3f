//! The Segments view's side of the state owner (issue 18): `S` segments the marked companies
//! (a paid action: planned, confirmed above the threshold, sent as a job) or opens the view
//! of the segmentations bought; the view's effects (read one, lookalikes of a segment,
//! attribute the loaded companies, mark good and poor fits) become calls here. A child of
//! `app`, so everything still changes only in [`App::update`].
use std::time::Duration;

use serde_json::Value;

use super::{App, Popup, StatusKind};
use crate::components::segments::{SegmentsEffect, SegmentsPopup};
use crate::keymap::KeyAction;
use crate::msg::{ApiFailure, Ask, Call, Command, Outcome, Slot, TimerId};
use crate::records::{FIT_CELL, SEGMENT_CELL};
use crate::schema::{self, SearchSubject};
use prospect_api::types::MarkType;
use prospect_core::session::Freshness;

/// How often a segmentation in progress is read again while the view shows it.
const POLL: Duration = Duration::from_secs(1);

impl App {
    /// `S`: with companies marked, segments them (paid: plan, confirm, job); else opens the
    /// view of the segmentations bought.
    pub(super) fn segments_key(&mut self) -> Vec<Command> {
        let domains: Vec<String> = self
            .results
            .marked(SearchSubject::Companies)
            .iter()
            .filter_map(|r| r.record.company().map(|c| c.domain.clone()))
            .filter(|d| !d.is_empty())
            .collect();
        if domains.is_empty() {
            return self.open_segments(None);
        }
        self.prepare_segmentation(domains)
    }

    /// Opens the view on the store's segmentations, `focus` first.
    pub(super) fn open_segments(&mut self, focus: Option<i64>) -> Vec<Command> {
        if !matches!(self.popups.last(), Some(Popup::Segments(_))) {
            self.popups.push(Popup::Segments(SegmentsPopup::default()));
        }
        vec![self.call(Slot::Segments, Call::Segmentations { focus })]
    }

    fn prepare_segmentation(&mut self, domains: Vec<String>) -> Vec<Command> {
        self.set_status(
            &format!(
                "Segmentation of {} companies: checking the store and the cost…",
                domains.len()
            ),
            StatusKind::Progress,
        );
        vec![self.call(
            Slot::Prepare,
            Call::Prepare {
                ask: Ask::segment(&domains),
                fresh: Freshness::Stored,
            },
        )]
    }

    /// A segmentation bought (or owned): the view opens on it.
    pub(super) fn segmentation_bought(&mut self, id: i64) -> Vec<Command> {
        self.open_segments(Some(id))
    }

    /// What the view asked for.
    pub(super) fn on_segments(&mut self, e: SegmentsEffect) -> Vec<Command> {
        match e {
            SegmentsEffect::Nothing => vec![],
            SegmentsEffect::Closed => {
                self.popups.pop();
                self.bump(Slot::Segments);
                vec![Command::Abort(Slot::Segments)]
            }
            SegmentsEffect::Load(id) => vec![self.call(Slot::Segments, Call::Segmentation(id))],
            SegmentsEffect::Lookalikes {
                seeds,
                keep_filters,
            } => self.segment_lookalikes(seeds, keep_filters),
            SegmentsEffect::Attribute(id) => {
                let domains: Vec<String> = self
                    .results
                    .fetched(SearchSubject::Companies)
                    .filter_map(|r| r.record.company().map(|c| c.domain.clone()))
                    .filter(|d| !d.is_empty())
                    .collect();
                if domains.is_empty() {
                    return self.note_segments("No companies loaded: run a search first.");
                }
                self.note_segments(&format!("Attributing {} loaded companies…", domains.len()));
                vec![self.call(Slot::SegmentWork, Call::Attribute { id, domains })]
            }
            SegmentsEffect::Mark(id, kind) => {
                let domains: Vec<String> = self
                    .targets(SearchSubject::Companies)
                    .iter()
                    .filter_map(|r| r.record.company().map(|c| c.domain.clone()))
                    .filter(|d| !d.is_empty())
                    .collect();
                if domains.is_empty() {
                    return self
                        .note_segments("Mark or select companies in the companies tab first.");
                }
                vec![self.call(Slot::SegmentWork, Call::MarkFit { id, kind, domains })]
            }
        }
    }

    /// A lookalike search seeded with a segment's companies (`seeds`): the seeds alone, or
    /// with the form's other companies filters when `keep_filters` (issue 38); the status line
    /// says which ran, and `Back` returns to the form as it was.
    fn segment_lookalikes(&mut self, seeds: Vec<String>, keep_filters: bool) -> Vec<Command> {
        self.popups.pop();
        if self.tab() != SearchSubject::Companies {
            self.form.show_kind(SearchSubject::Companies);
            self.form.clamp_selection();
        }
        self.push_back(SearchSubject::Companies);
        let n = seeds.len();
        schema::remove(&mut self.form.body, &["companiesFilters", "includeDomains"]);
        schema::remove(
            &mut self.form.body,
            &["companiesFilters", "lookalikeDomains"],
        );
        let others = schema::leaves(self.form.endpoint)
            .iter()
            .filter(|l| {
                l.path != ["size"] && schema::is_filled(schema::get(&self.form.body, l.path))
            })
            .count();
        if !keep_filters {
            // The seeds alone: of the form, only the page size stays.
            let mut seeds_only = serde_json::json!({});
            if let Some(size) = schema::get(&self.form.body, &["size"]) {
                schema::set(&mut seeds_only, &["size"], size.clone());
            }
            self.form.body = seeds_only;
        }
        schema::set(
            &mut self.form.body,
            &["companiesFilters", "lookalikeDomains"],
            Value::Array(seeds.into_iter().map(Value::String).collect()),
        );
        use prospect_common::words::counted;
        let back = self.opts.keymap.first_key_of(KeyAction::Back);
        let which = match (keep_filters, others) {
            (true, 0) | (false, 0) => "seeds only".to_string(),
            (true, k) => format!("seeds + your {}", counted(k, "filter", "filters")),
            (false, k) => format!(
                "seeds only, without your {} ({back} brings them back)",
                counted(k, "filter", "filters")
            ),
        };
        let cmds = self.run_search();
        if self.popups.is_empty()
            && let Some(st) = &mut self.status
        {
            st.text.insert_str(
                0,
                &format!("Lookalikes of the segment, seeded with {n} of its companies, {which} · "),
            );
        }
        cmds
    }

    /// A line in the view (when open), else on the status line.
    fn note_segments(&mut self, text: &str) -> Vec<Command> {
        match self.popups.last_mut() {
            Some(Popup::Segments(p)) => {
                p.note = Some(text.to_string());
                self.dirty = true;
                vec![]
            }
            _ => self.info(text),
        }
    }

    /// An answer for the view: the store's list, a segmentation (read again every
    /// [`POLL`] while in progress), an attribution (into the `segment` and `fit` columns), a
    /// mark.
    pub(super) fn on_segments_answer(
        &mut self,
        slot: Slot,
        result: Result<Outcome, ApiFailure>,
    ) -> Vec<Command> {
        match (slot, result) {
            (Slot::Segments, Ok(Outcome::Segmentations { rows, focus })) => {
                let Some(Popup::Segments(p)) = self.popups.last_mut() else {
                    return vec![];
                };
                match p.loaded(rows, focus) {
                    Some(id) => vec![self.call(Slot::Segments, Call::Segmentation(id))],
                    None => vec![],
                }
            }
            (Slot::Segments, Ok(Outcome::Segmentation(s))) => {
                let Some(Popup::Segments(p)) = self.popups.last_mut() else {
                    return vec![];
                };
                p.answered(*s);
                if p.in_progress() {
                    return vec![self.timer(TimerId::Segmentation, POLL)];
                }
                vec![]
            }
            (Slot::SegmentWork, Ok(Outcome::Attributed { id, results })) => {
                let names: std::collections::HashMap<i64, String> = match self.popups.last() {
                    Some(Popup::Segments(p)) => p
                        .shown
                        .iter()
                        .flat_map(|s| s.segments.iter())
                        .map(|s| (s.segment_id, format!("{} {}", s.segment_id, s.name)))
                        .collect(),
                    _ => Default::default(),
                };
                let by_domain: std::collections::HashMap<String, (Option<i64>, Option<f64>)> =
                    results
                        .iter()
                        .map(|r| {
                            (
                                prospect_common::keys::normalize_domain(&r.domain),
                                (r.segment_id, r.score),
                            )
                        })
                        .collect();
                let mut attributed = 0;
                let mut rows = 0;
                let s = self.search_mut(SearchSubject::Companies);
                for page in &mut s.pages {
                    for row in &mut page.rows {
                        let Some(c) = row.record.company() else {
                            continue;
                        };
                        let key = prospect_common::keys::normalize_domain(&c.domain);
                        let Some((seg, score)) = by_domain.get(&key) else {
                            continue;
                        };
                        rows += 1;
                        if row.cells.len() <= FIT_CELL {
                            row.cells.resize(FIT_CELL + 1, String::new());
                        }
                        row.cells[SEGMENT_CELL] = seg
                            .map(|id| {
                                prospect_common::sanitize::sanitize(
                                    names.get(&id).map_or(&id.to_string(), |n| n),
                                )
                            })
                            .unwrap_or_else(|| "none".into());
                        row.cells[FIT_CELL] = score.map(|x| format!("{x:.2}")).unwrap_or_default();
                        attributed += usize::from(seg.is_some());
                    }
                }
                s.rows_changed();
                self.results
                    .columns
                    .show(SearchSubject::Companies, &["segment", "fit"]);
                let sort = self.opts.keymap.first_key_of(KeyAction::Columns);
                self.note_segments(&format!(
                    "Segmentation {id}: {attributed} of {rows} loaded companies fit a segment · \
                     segment and fit columns shown; {sort} sorts by fit · free"
                ))
            }
            (Slot::SegmentWork, Ok(Outcome::Marked { kind, count })) => {
                let how = match kind {
                    MarkType::Negative => "a poor fit",
                    _ => "a good fit",
                };
                self.note_segments(&format!(
                    "{count} companies marked {how}: later attributions lean that way · free"
                ))
            }
            (Slot::Segments | Slot::SegmentWork, Err(e)) => {
                self.note_segments(&format!("Not done: {}", e.message))
            }
            (slot, other) => {
                tracing::warn!(?slot, ok = other.is_ok(), "unexpected segments answer");
                vec![]
            }
        }
    }

    /// [`TimerId::Segmentation`]: the view reads the segmentation in progress again.
    pub(super) fn segmentation_tick(&mut self) -> Vec<Command> {
        match self.popups.last() {
            Some(Popup::Segments(p)) if p.in_progress() => match p.id() {
                Some(id) => vec![self.call(Slot::Segments, Call::Segmentation(id))],
                None => vec![],
            },
            _ => vec![],
        }
    }
}
