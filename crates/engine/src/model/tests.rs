use super::*;
use crate::action::Bytes;
use crate::action::Independence;
use crate::program::{DefectKind, End, Execution, Program, RunRequest};

fn req<'a>(replay: &'a [ThreadId], sleep: &'a [(ThreadId, Action)]) -> RunRequest<'a> {
    RunRequest { replay, sleep, independence: Independence::AllDependent, max_steps: 10_000 }
}

fn run(m: &mut Model, replay: &[ThreadId]) -> Execution {
    let mut out = Execution::default();
    m.run(&req(replay, &[]), &mut out).expect("run");
    out
}

const T0: ThreadId = ThreadId(0);
const T1: ThreadId = ThreadId(1);
const T2: ThreadId = ThreadId(2);

fn two_lockers() -> Model {
    let mut b = ModelBuilder::new();
    let m = b.mutex();
    let x = b.var(0);
    let w = b.thread("w", |t| {
        t.lock(m);
        let v = t.load(x);
        t.store(x, v.add(1));
        t.unlock(m);
    });
    b.main(|t| {
        let h1 = t.spawn(w);
        let h2 = t.spawn(w);
        t.join(h1);
        t.join(h2);
    });
    b.build()
}

#[test]
fn default_policy_runs_last_thread_then_lowest_and_fills_next() {
    let mut m = two_lockers();
    let e = run(&mut m, &[]);
    let acts: Vec<(ThreadId, Action)> = e.steps.iter().map(|s| (s.thread, s.action)).collect();
    let mo = mutex_obj(0);
    assert_eq!(e.first, Some(Action::Create(T1)));
    assert_eq!(
        acts,
        vec![
            (T0, Action::Create(T1)),
            (T0, Action::Create(T2)),
            (T1, Action::Lock(mo)),
            (T1, Action::Unlock(mo, true)),
            (T1, Action::Exit),
            (T0, Action::Join(T1)),
            (T2, Action::Lock(mo)),
            (T2, Action::Unlock(mo, true)),
            (T2, Action::Exit),
            (T0, Action::Join(T2)),
            (T0, Action::ExitProcess),
        ]
    );
    assert_eq!(e.steps[0].child_next, Some(Action::Lock(mo)));
    assert_eq!(e.steps[0].next, Some(Action::Create(T2)));
    assert_eq!(e.steps[2].next, Some(Action::Unlock(mo, true)));
    assert_eq!(e.steps[4].next, None);
    assert_eq!(e.end, End::Finished);
    assert_eq!(m.var_value(Var(0)), 2);
}

#[test]
fn replay_is_followed_and_a_blocked_replay_is_a_divergence() {
    let mut m = two_lockers();
    let e = run(&mut m, &[T0, T0, T2]);
    assert_eq!(e.steps[2].thread, T2);
    assert_eq!(e.steps[3].thread, T2, "last thread goes on after the replay");
    let mut out = Execution::default();
    let err = m.run(&req(&[T0, T0, T1, T2], &[]), &mut out).unwrap_err();
    assert!(matches!(err, ProgramError::Divergence { step: 3, .. }), "{err:?}");
}

#[test]
fn thread_ids_are_stable_across_runs_whatever_the_order() {
    let mut b = ModelBuilder::new();
    let leaf = b.thread("leaf", |_| {});
    let mid = b.thread("mid", |t| {
        t.spawn(leaf);
    });
    b.main(|t| {
        t.spawn(mid);
        t.spawn(leaf);
    });
    let mut m = b.build();
    let e1 = run(&mut m, &[T0, T1]); // mid creates its child before main's 2nd spawn
    let e2 = run(&mut m, &[T0, T0]);
    let creates = |e: &Execution| {
        e.steps
            .iter()
            .filter_map(|s| match s.action {
                Action::Create(c) => Some((s.thread, c)),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    let mut c1 = creates(&e1);
    let mut c2 = creates(&e2);
    c1.sort();
    c2.sort();
    assert_eq!(c1, c2);
    assert_eq!(m.thread_path(ThreadId(2)), vec![0, 0]);
    assert_eq!(m.thread_path(ThreadId(3)), vec![1]);
}

#[test]
fn trylock_result_assert_and_assume() {
    let mut b = ModelBuilder::new();
    let m = b.mutex();
    let holder = b.thread("holder", |t| {
        t.lock(m);
        t.unlock(m);
    });
    let quitter = b.thread("quitter", |t| {
        t.assume(Expr::Const(0));
        t.lock(m);
    });
    b.main(|t| {
        t.spawn(holder);
        t.spawn(quitter);
        let r = t.trylock(m);
        t.assert(r.e(), "trylock failed");
        t.unlock(m);
    });
    let mut mm = b.build();
    // main: create, create; holder locks first; main's trylock then fails.
    let e = run(&mut mm, &[T0, T0, T1, T0]);
    assert_eq!(e.steps[3].action, Action::TryLock(mutex_obj(0), false));
    assert_eq!(e.steps[3].next, None);
    assert_eq!(e.defects.len(), 1);
    assert_eq!(e.defects[0].kind, DefectKind::Assertion);
    assert_eq!(e.defects[0].thread, T0);
    assert_eq!(e.defects[0].after_steps, 4);
    assert_eq!(e.assumed, vec![T2]);
    assert_eq!(e.end, End::Finished);
    let e = run(&mut mm, &[T0, T0, T0]);
    assert_eq!(e.steps[2].action, Action::TryLock(mutex_obj(0), true));
    assert!(e.defects.is_empty());
}

#[test]
fn deadlock_lists_blocked_threads() {
    let mut b = ModelBuilder::new();
    let m1 = b.mutex();
    let m2 = b.mutex();
    let a = b.thread("a", |t| {
        t.lock(m1);
        t.lock(m2);
        t.unlock(m2);
        t.unlock(m1);
    });
    let c = b.thread("c", |t| {
        t.lock(m2);
        t.lock(m1);
        t.unlock(m1);
        t.unlock(m2);
    });
    b.main(|t| {
        let h1 = t.spawn(a);
        let h2 = t.spawn(c);
        t.join(h1);
        t.join(h2);
    });
    let mut m = b.build();
    let e = run(&mut m, &[T0, T0, T1, T2]);
    match &e.end {
        End::Deadlock { blocked } => {
            assert_eq!(
                blocked,
                &vec![(T0, Action::Join(T1)), (T1, Action::Lock(mutex_obj(1))), (T2, Action::Lock(mutex_obj(0)))]
            );
        }
        other => panic!("expected a deadlock, got {other:?}"),
    }
}

#[test]
fn sleeping_threads_block_the_run_until_woken() {
    let mut b = ModelBuilder::new();
    let x = b.var(0);
    let y = b.var(0);
    let w = b.thread("w", |t| t.write(x, 1));
    b.main(|t| {
        t.spawn(w);
        t.write(y, 1);
    });
    let mut m = b.build();
    // After create, t1 asleep on write(x): main's write(y) does not wake it, main's
    // process exit is not enabled while t1 is: sleep-set blocked.
    let mut out = Execution::default();
    let sleep = [(T1, Action::Write(var_obj(0), Bytes::ALL))];
    m.run(&req(&[T0], &sleep), &mut out).unwrap();
    assert_eq!(out.end, End::SleepBlocked);
    assert_eq!(out.steps.len(), 2);
    // Asleep on write(y): main's write(y) wakes it.
    let sleep = [(T1, Action::Write(var_obj(1), Bytes::ALL))];
    m.run(&req(&[T0], &sleep), &mut out).unwrap();
    assert_eq!(out.end, End::Finished);
    assert_eq!(out.steps.len(), 5);
}

#[test]
fn misuse_is_a_defect() {
    let mut b = ModelBuilder::new();
    let m = b.mutex();
    b.main(|t| t.unlock(m));
    let mut mm = b.build();
    let e = run(&mut mm, &[]);
    assert_eq!(e.first, None);
    assert_eq!(e.defects[0].kind, DefectKind::MutexMisuse);
    assert!(e.steps.is_empty());
}

#[test]
fn random_programs_are_deterministic_and_run() {
    for seed in 0..200 {
        let mut a = random::program(seed);
        let mut b = random::program(seed);
        let ea = run(&mut a, &[]);
        let eb = run(&mut b, &[]);
        assert_eq!(ea, eb, "seed {seed}");
        assert!(!ea.steps.is_empty() || ea.first.is_none());
        // Replaying an execution's schedule reproduces it.
        let again = run(&mut a, &ea.schedule());
        assert_eq!(again.steps, ea.steps, "seed {seed}");
    }
}

#[test]
fn paper_programs_run_to_completion() {
    for mut m in [
        programs::qpor_fig1(3),
        programs::qpor_fig2(),
        programs::jacm_fig10(2),
        programs::readers(3),
        programs::lastzero(3),
        programs::filesystem(14),
        programs::philosophers(3),
        programs::lock_chain(2, 2),
    ] {
        let e = run(&mut m, &[]);
        assert!(matches!(e.end, End::Finished | End::Deadlock { .. }), "{:?}", e.end);
        assert!(e.defects.is_empty(), "{:?}", e.defects);
    }
}

#[test]
fn a_run_is_cheap() {
    let mut m = programs::qpor_fig1(3);
    let mut out = Execution::default();
    let r = req(&[], &[]);
    m.run(&r, &mut out).unwrap();
    let n = 2000;
    let t0 = std::time::Instant::now();
    for _ in 0..n {
        m.run(&r, &mut out).unwrap();
    }
    let per_run = t0.elapsed() / n;
    let per_step = t0.elapsed() / (n * out.steps.len() as u32);
    println!("qpor_fig1(3): {} steps, {per_run:?}/run, {per_step:?}/step", out.steps.len());
    // Generous bound (debug assertions on, shared machine): a few µs is the target.
    assert!(per_run < std::time::Duration::from_micros(200), "{per_run:?} per run");
}
