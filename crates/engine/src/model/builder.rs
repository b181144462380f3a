//! The builder API of the test model.
//!
//! ```
//! use unfold_engine::model::ModelBuilder;
//! let mut b = ModelBuilder::new();
//! let m = b.mutex();
//! let x = b.var(0);
//! let w = b.thread("w", |t| {
//!     t.lock(m);
//!     t.store(x, 7);
//!     t.unlock(m);
//! });
//! b.main(|t| {
//!     let h = t.spawn(w);
//!     t.lock(m);
//!     let v = t.load(x);
//!     t.unlock(m);
//!     t.join(h);
//!     t.assert(v.eq(0), "w ran first");
//! });
//! let model = b.build();
//! assert_eq!(model.code_count(), 2);
//! ```

use super::{BinOp, Code, Instr, Model};

/// A per-thread register.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Reg(pub(crate) u32);

/// A mutex of the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Mutex(pub(crate) u32);

/// A shared integer variable of the model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Var(pub(crate) u32);

/// A thread code (code 0 is main).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CodeId(pub(crate) u32);

/// A jump target inside one thread code.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Label(u32);

/// An integer expression over the thread's registers (booleans are 0/1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Expr {
    /// A constant.
    Const(i64),
    /// A register.
    Reg(Reg),
    /// A binary operation.
    Bin(BinOp, Box<Expr>, Box<Expr>),
    /// Logical negation (0 → 1, anything else → 0).
    Not(Box<Expr>),
}

impl From<i64> for Expr {
    fn from(v: i64) -> Expr {
        Expr::Const(v)
    }
}

impl From<Reg> for Expr {
    fn from(r: Reg) -> Expr {
        Expr::Reg(r)
    }
}

macro_rules! binops {
    ($($name:ident => $op:ident),* $(,)?) => {
        impl Expr {
            $(
                #[doc = concat!("`self ", stringify!($name), " other`.")]
                #[allow(clippy::should_implement_trait)]
                pub fn $name(self, other: impl Into<Expr>) -> Expr {
                    Expr::Bin(BinOp::$op, Box::new(self), Box::new(other.into()))
                }
            )*
        }
        impl Reg {
            $(
                #[doc = concat!("`self ", stringify!($name), " other`.")]
                #[allow(clippy::should_implement_trait)]
                pub fn $name(self, other: impl Into<Expr>) -> Expr {
                    Expr::from(self).$name(other)
                }
            )*
        }
    };
}

binops!(add => Add, sub => Sub, mul => Mul, rem => Rem, eq => Eq, ne => Ne, lt => Lt, le => Le, and => And, or => Or);

impl Expr {
    /// Logical negation.
    #[allow(clippy::should_implement_trait)]
    pub fn not(self) -> Expr {
        Expr::Not(Box::new(self))
    }

    /// Evaluate over a register file.
    pub(crate) fn eval(&self, regs: &[i64]) -> i64 {
        match self {
            Expr::Const(v) => *v,
            Expr::Reg(r) => regs[r.0 as usize],
            Expr::Not(e) => (e.eval(regs) == 0) as i64,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(regs), b.eval(regs));
                match op {
                    BinOp::Add => a.wrapping_add(b),
                    BinOp::Sub => a.wrapping_sub(b),
                    BinOp::Mul => a.wrapping_mul(b),
                    BinOp::Rem => {
                        if b == 0 {
                            0
                        } else {
                            a.wrapping_rem(b)
                        }
                    }
                    BinOp::Eq => (a == b) as i64,
                    BinOp::Ne => (a != b) as i64,
                    BinOp::Lt => (a < b) as i64,
                    BinOp::Le => (a <= b) as i64,
                    BinOp::And => (a != 0 && b != 0) as i64,
                    BinOp::Or => (a != 0 || b != 0) as i64,
                }
            }
        }
    }
}

impl Reg {
    /// The register as an expression.
    pub fn e(self) -> Expr {
        Expr::Reg(self)
    }
}

/// Builds a [`Model`]: declare mutexes and variables, then thread codes, then main.
#[derive(Debug, Default)]
pub struct ModelBuilder {
    codes: Vec<Option<Code>>,
    var_init: Vec<i64>,
    nmutex: u32,
}

impl ModelBuilder {
    /// An empty builder (main must be given with [`ModelBuilder::main`]).
    pub fn new() -> Self {
        ModelBuilder { codes: vec![None], var_init: Vec::new(), nmutex: 0 }
    }

    /// A new mutex, initially free.
    pub fn mutex(&mut self) -> Mutex {
        self.nmutex += 1;
        Mutex(self.nmutex - 1)
    }

    /// A new shared variable with an initial value.
    pub fn var(&mut self, init: i64) -> Var {
        self.var_init.push(init);
        Var(self.var_init.len() as u32 - 1)
    }

    /// A new thread code, built by `f`.
    pub fn thread(&mut self, name: &str, f: impl FnOnce(&mut ThreadBuilder)) -> CodeId {
        let code = ThreadBuilder::build(name, f);
        self.codes.push(Some(code));
        CodeId(self.codes.len() as u32 - 1)
    }

    /// The code of main.
    pub fn main(&mut self, f: impl FnOnce(&mut ThreadBuilder)) {
        self.codes[0] = Some(ThreadBuilder::build("main", f));
    }

    /// The model.
    ///
    /// # Panics
    /// If main was not given.
    pub fn build(self) -> Model {
        let codes = self.codes.into_iter().map(|c| c.expect("ModelBuilder: main was not given")).collect();
        Model::new(codes, self.var_init, self.nmutex as usize)
    }
}

/// Builds the code of one thread. Every code ends with an implicit thread end.
#[derive(Debug)]
pub struct ThreadBuilder {
    instrs: Vec<Instr>,
    nregs: u32,
    // invariant: labels[l] is the pc of label l once placed (u32::MAX before).
    labels: Vec<u32>,
}

impl ThreadBuilder {
    fn build(name: &str, f: impl FnOnce(&mut ThreadBuilder)) -> Code {
        let mut t = ThreadBuilder { instrs: Vec::new(), nregs: 0, labels: Vec::new() };
        f(&mut t);
        t.instrs.push(Instr::End);
        // Resolve labels: jumps were emitted with label numbers.
        let labels = t.labels;
        for ins in &mut t.instrs {
            match ins {
                Instr::JumpIfZero(_, l) | Instr::Jump(l) => {
                    let pc = labels[*l as usize];
                    assert!(pc != u32::MAX, "ThreadBuilder: label used but never placed");
                    *l = pc;
                }
                _ => {}
            }
        }
        Code { name: name.to_string(), instrs: t.instrs, nregs: t.nregs as usize }
    }

    /// A fresh register, initially 0.
    pub fn reg(&mut self) -> Reg {
        self.nregs += 1;
        Reg(self.nregs - 1)
    }

    /// `lock(m)`: visible, blocks while `m` is held.
    pub fn lock(&mut self, m: Mutex) {
        self.instrs.push(Instr::Lock(m.0));
    }

    /// `unlock(m)`: visible.
    pub fn unlock(&mut self, m: Mutex) {
        self.instrs.push(Instr::Unlock(m.0));
    }

    /// `trylock(m)`: visible, never blocks; the result (1 acquired, 0 busy) in a register.
    pub fn trylock(&mut self, m: Mutex) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::TryLock(m.0, r));
        r
    }

    /// Invisible read of a shared variable (only inside critical sections).
    pub fn load(&mut self, v: Var) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Load(r, v.0));
        r
    }

    /// Invisible write of a shared variable (only inside critical sections).
    pub fn store(&mut self, v: Var, e: impl Into<Expr>) {
        self.instrs.push(Instr::Store(v.0, e.into()));
    }

    /// Visible read ([`crate::Action::Read`]).
    pub fn read(&mut self, v: Var) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Read(r, v.0));
        r
    }

    /// Visible write ([`crate::Action::Write`]).
    pub fn write(&mut self, v: Var, e: impl Into<Expr>) {
        self.instrs.push(Instr::Write(v.0, e.into()));
    }

    /// Visible atomic fetch-add ([`crate::Action::Rmw`]); returns the old value.
    pub fn fetch_add(&mut self, v: Var, e: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::FetchAdd(r, v.0, e.into()));
        r
    }

    /// Visible atomic exchange ([`crate::Action::Rmw`]); returns the old value.
    pub fn exchange(&mut self, v: Var, e: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Exchange(r, v.0, e.into()));
        r
    }

    /// `r := e` (local).
    pub fn set(&mut self, r: Reg, e: impl Into<Expr>) {
        self.instrs.push(Instr::Set(r, e.into()));
    }

    /// A fresh register holding `e`.
    pub fn let_(&mut self, e: impl Into<Expr>) -> Reg {
        let r = self.reg();
        self.set(r, e);
        r
    }

    /// `assert(cond)`: failure is a [`crate::DefectKind::Assertion`] defect.
    pub fn assert(&mut self, cond: impl Into<Expr>, msg: &str) {
        self.instrs.push(Instr::Assert(cond.into(), msg.to_string()));
    }

    /// `assume(cond)`: if false the thread stops silently.
    pub fn assume(&mut self, cond: impl Into<Expr>) {
        self.instrs.push(Instr::Assume(cond.into()));
    }

    /// Spawn a thread running `code` (visible [`crate::Action::Create`]); returns the
    /// handle to join.
    pub fn spawn(&mut self, code: CodeId) -> Reg {
        let r = self.reg();
        self.instrs.push(Instr::Spawn(r, code.0));
        r
    }

    /// Join the thread whose handle is in `h` (visible).
    pub fn join(&mut self, h: Reg) {
        self.instrs.push(Instr::Join(h.e()));
    }

    /// A new, unplaced label.
    pub fn label(&mut self) -> Label {
        self.labels.push(u32::MAX);
        Label(self.labels.len() as u32 - 1)
    }

    /// Place `l` at the next instruction.
    pub fn place(&mut self, l: Label) {
        self.labels[l.0 as usize] = self.instrs.len() as u32;
    }

    /// Jump to `l` when `cond` is zero.
    pub fn jump_if_zero(&mut self, cond: impl Into<Expr>, l: Label) {
        self.instrs.push(Instr::JumpIfZero(cond.into(), l.0));
    }

    /// Jump to `l` when `cond` is non-zero.
    pub fn jump_if(&mut self, cond: impl Into<Expr>, l: Label) {
        self.instrs.push(Instr::JumpIfZero(cond.into().not(), l.0));
    }

    /// Unconditional jump.
    pub fn jump(&mut self, l: Label) {
        self.instrs.push(Instr::Jump(l.0));
    }

    /// `if cond { then }`.
    pub fn if_(&mut self, cond: impl Into<Expr>, then: impl FnOnce(&mut ThreadBuilder)) {
        let end = self.label();
        self.jump_if_zero(cond, end);
        then(self);
        self.place(end);
    }

    /// `if cond { then } else { els }`.
    pub fn if_else(
        &mut self,
        cond: impl Into<Expr>,
        then: impl FnOnce(&mut ThreadBuilder),
        els: impl FnOnce(&mut ThreadBuilder),
    ) {
        let other = self.label();
        let end = self.label();
        self.jump_if_zero(cond, other);
        then(self);
        self.jump(end);
        self.place(other);
        els(self);
        self.place(end);
    }

    /// `while { cond_code; cond } { body }`: `cond` computes the condition (it may emit
    /// instructions, e.g. a read) and is re-run before each iteration.
    pub fn while_(&mut self, cond: impl FnOnce(&mut ThreadBuilder) -> Expr, body: impl FnOnce(&mut ThreadBuilder)) {
        let head = self.label();
        let end = self.label();
        self.place(head);
        let c = cond(self);
        self.jump_if_zero(c, end);
        body(self);
        self.jump(head);
        self.place(end);
    }
}
