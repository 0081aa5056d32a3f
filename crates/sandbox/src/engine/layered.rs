//! [`Layered`]: the read-only sequences of a [`Db`](crate::dataset::load::Db) in two
//! parts, the dataset's items (shared by every snapshot of the database) and the items added
//! after loading (companies whose data gathering finished, and their people, SPEC.md §3). A new
//! snapshot with more items copies only the added part, never the dataset.

use std::ops::Index;
use std::sync::Arc;

/// A sequence indexed `0..len()`: `base` first, then `tail`. Cloning shares both parts.
#[derive(Debug)]
pub struct Layered<T> {
    base: Arc<Vec<T>>,
    tail: Arc<Vec<T>>,
}

impl<T> Clone for Layered<T> {
    fn clone(&self) -> Self {
        Layered {
            base: self.base.clone(),
            tail: self.tail.clone(),
        }
    }
}

impl<T> Default for Layered<T> {
    fn default() -> Self {
        Layered::new(Vec::new())
    }
}

impl<T> From<Vec<T>> for Layered<T> {
    fn from(v: Vec<T>) -> Self {
        Layered::new(v)
    }
}

impl<T> Layered<T> {
    /// A sequence of `base` items and no added ones.
    pub fn new(base: Vec<T>) -> Layered<T> {
        Layered {
            base: Arc::new(base),
            tail: Arc::new(Vec::new()),
        }
    }

    /// Number of items (base and added).
    pub fn len(&self) -> usize {
        self.base.len() + self.tail.len()
    }

    /// `true` when there is no item.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Number of items of the dataset (the added ones come after).
    pub fn base_len(&self) -> usize {
        self.base.len()
    }

    /// The dataset's items.
    pub fn base(&self) -> &[T] {
        &self.base
    }

    /// The items added after loading.
    pub fn tail(&self) -> &[T] {
        &self.tail
    }

    /// The item at `i`, if in range.
    pub fn get(&self, i: usize) -> Option<&T> {
        let b = self.base.len();
        if i < b {
            self.base.get(i)
        } else {
            self.tail.get(i - b)
        }
    }

    /// Every item in index order.
    pub fn iter(&self) -> std::iter::Chain<std::slice::Iter<'_, T>, std::slice::Iter<'_, T>> {
        self.base.iter().chain(self.tail.iter())
    }

    /// The same base with `more` items added after the current ones (the added part is copied).
    pub fn with_more(&self, more: impl IntoIterator<Item = T>) -> Layered<T>
    where
        T: Clone,
    {
        let mut tail: Vec<T> = self.tail.as_ref().clone();
        tail.extend(more);
        Layered {
            base: self.base.clone(),
            tail: Arc::new(tail),
        }
    }
}

impl<T> Index<usize> for Layered<T> {
    type Output = T;

    /// The item at `i`; panics when `i >= len()`, like a slice (callers index with ids the
    /// database itself handed out).
    fn index(&self, i: usize) -> &T {
        let b = self.base.len();
        if i < b {
            &self.base[i]
        } else {
            &self.tail[i - b]
        }
    }
}

impl<'a, T> IntoIterator for &'a Layered<T> {
    type Item = &'a T;
    type IntoIter = std::iter::Chain<std::slice::Iter<'a, T>, std::slice::Iter<'a, T>>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_then_tail() {
        let a = Layered::new(vec![1, 2, 3]);
        let b = a.with_more([4]);
        let c = b.with_more([5, 6]);
        assert_eq!(a.len(), 3);
        assert_eq!(c.len(), 6);
        assert_eq!(c[3], 4);
        assert_eq!(c[5], 6);
        assert_eq!(c.get(6), None);
        assert_eq!(
            c.iter().copied().collect::<Vec<_>>(),
            vec![1, 2, 3, 4, 5, 6]
        );
        assert_eq!(b.tail(), &[4]);
        assert!(Arc::ptr_eq(&a.base, &c.base));
    }
}
