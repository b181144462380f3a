//! Typed identities: threads, objects and events.
//!
//! Identities must be *stable across executions* (design brief, "Stable identities"):
//! the same logical thread gets the same [`ThreadId`] in every execution, and the same
//! mutex or memory location the same [`ObjId`] in every execution that shares its causal
//! history. Threads are named by their creation path and the paths are interned by
//! [`ThreadNames`]; objects are named by the frontend (an address for C, an index for
//! the test model).

use rustc_hash::FxHashMap as HashMap;
use std::fmt;

/// A thread, named by its interned creation path (see [`ThreadNames`]). `ThreadId(0)`
/// is always the main thread.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct ThreadId(pub u16);

impl ThreadId {
    /// The main thread (creation path `[]`).
    pub const MAIN: ThreadId = ThreadId(0);

    /// The id as an index into per-thread vectors.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

impl fmt::Display for ThreadId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t{}", self.0)
    }
}

/// A synchronisation object or visible memory location: a mutex, or an address accessed
/// by a visible (atomic) memory operation. The value is chosen by the frontend and must
/// be stable across executions (a C frontend uses the object's deterministic address).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize)]
pub struct ObjId(pub u64);

impl fmt::Debug for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "o{:x}", self.0)
    }
}

impl fmt::Display for ObjId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "o{:x}", self.0)
    }
}

/// An event of the unfolding: an index into the event arena of
/// [`Unfolding`](crate::unfolding::Unfolding).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct EventId(pub u32);

impl EventId {
    /// The id as an index into the event arena.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl fmt::Debug for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}", self.0)
    }
}

impl fmt::Display for EventId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "e{}", self.0)
    }
}

/// Interns thread creation paths: main is `[]`, its second child `[1]`, that child's
/// first child `[1, 0]`. The n-th path interned gets `ThreadId(n)`, so ids are stable
/// for as long as one `ThreadNames` is shared by all executions of an exploration.
#[derive(Debug, Clone)]
pub struct ThreadNames {
    // invariant: paths[id] is the creation path of ThreadId(id); ids[paths[id]] == id.
    paths: Vec<(Option<ThreadId>, u32)>,
    ids: HashMap<(ThreadId, u32), ThreadId>,
}

impl Default for ThreadNames {
    fn default() -> Self {
        Self::new()
    }
}

impl ThreadNames {
    /// A table that knows only the main thread.
    pub fn new() -> Self {
        ThreadNames { paths: vec![(None, 0)], ids: HashMap::default() }
    }

    /// The id of the `nth` (0-based) thread created by `parent`, interning it if new.
    ///
    /// # Panics
    /// If more than 65 535 distinct threads are interned.
    pub fn child(&mut self, parent: ThreadId, nth: u32) -> ThreadId {
        if let Some(&id) = self.ids.get(&(parent, nth)) {
            return id;
        }
        let id = ThreadId(u16::try_from(self.paths.len()).expect("more than 65535 distinct threads"));
        self.paths.push((Some(parent), nth));
        self.ids.insert((parent, nth), id);
        id
    }

    /// The creation path of `t`, from main's child index down to `t`'s own index.
    pub fn path(&self, t: ThreadId) -> Vec<u32> {
        let mut path = Vec::new();
        let mut cur = t;
        while let (Some(parent), nth) = self.paths[cur.index()] {
            path.push(nth);
            cur = parent;
        }
        path.reverse();
        path
    }

    /// Number of interned threads.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Always false: main is always known.
    pub fn is_empty(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_interned_stably() {
        let mut names = ThreadNames::new();
        let a = names.child(ThreadId::MAIN, 0);
        let b = names.child(ThreadId::MAIN, 1);
        let c = names.child(b, 0);
        assert_eq!(names.child(ThreadId::MAIN, 1), b);
        assert_eq!(names.child(b, 0), c);
        assert_ne!(a, b);
        assert_eq!(names.path(c), vec![1, 0]);
        assert_eq!(names.path(ThreadId::MAIN), Vec::<u32>::new());
        assert_eq!(names.len(), 4);
    }
}
