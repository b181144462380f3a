//! The program image: the shared object `dlopen`ed once in the parent, its `main`, its
//! writable data (what a persistent worker restores between executions), its
//! thread-local storage segment, and its constructors and destructors.
//!
//! # Constructors and destructors belong to each execution
//!
//! `dlopen` would run the program's constructors (`.init_array`) in the checker's own
//! process, and `exit` of the checker its destructors (`.fini_array`): a constructor that
//! crashes, loops, locks or prints would hit the checker, a destructor's `_exit(0)` would
//! turn a defect into a clean exit. Before loading, [`Image::load`] therefore sets the
//! sizes of both arrays in the object's dynamic section (`DT_INIT_ARRAYSZ`,
//! `DT_FINI_ARRAYSZ`) to zero, so that the dynamic loader runs neither, and remembers
//! them: each execution runs the constructors in main's thread before `main`, and the
//! destructors after the `atexit` handlers when the program exits (see
//! [`crate::process`]). Their heap and globals are reset like the rest.

use crate::exec::MainFn;
use crate::RuntimeError;
use std::ffi::{c_int, c_void, CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// The program image, loaded in the parent.
#[derive(Debug)]
pub struct Image {
    /// Load address of the shared object.
    pub base: u64,
    /// `[start, end)` of the whole image.
    pub range: (u64, u64),
    /// `[start, end)` of each loaded segment: the image has gaps between them.
    loads: Vec<(u64, u64)>,
    pub(crate) main: MainFn,
    pub(crate) writable: Vec<(usize, usize)>,
    /// The page-aligned parts of the writable segments beyond their file contents
    /// (`.bss`): anonymous zero-filled memory, `(start, len)`.
    pub(crate) bss: Vec<(usize, usize)>,
    pub(crate) tls: Option<TlsSegment>,
    /// The constructors (`.init_array`, in order) and destructors (`.fini_array`, in
    /// order: they run in reverse) of the program, as function addresses.
    pub(crate) ctors: Vec<usize>,
    pub(crate) dtors: Vec<usize>,
}

const DT_INIT_ARRAY: u64 = 25;
const DT_FINI_ARRAY: u64 = 26;
const DT_INIT_ARRAYSZ: u64 = 27;
const DT_FINI_ARRAYSZ: u64 = 28;
const DT_PREINIT_ARRAYSZ: u64 = 33;

/// The constructor and destructor arrays of a shared object: `(vaddr, bytes)` each.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct InitFini {
    init: (u64, u64),
    fini: (u64, u64),
}

/// Zero `DT_INIT_ARRAYSZ` and `DT_FINI_ARRAYSZ` in the dynamic section of the ELF64
/// little-endian shared object `elf` (the loader then runs no constructor or destructor
/// of it) and return the arrays they described.
fn disable_init_fini(elf: &mut [u8]) -> Result<InitFini, String> {
    let u16_at = |b: &[u8], o: usize| b.get(o..o + 2).map(|x| u16::from_le_bytes([x[0], x[1]]));
    let u64_at = |b: &[u8], o: usize| b.get(o..o + 8).map(|x| u64::from_le_bytes(x.try_into().expect("8 bytes")));
    if elf.get(..6) != Some(&[0x7f, b'E', b'L', b'F', 2, 1][..]) {
        return Err("not a 64-bit little-endian ELF object".into());
    }
    let bad = || "malformed program headers".to_string();
    let phoff = u64_at(elf, 0x20).ok_or_else(bad)? as usize;
    let phentsize = u16_at(elf, 0x36).ok_or_else(bad)? as usize;
    let phnum = u16_at(elf, 0x38).ok_or_else(bad)? as usize;
    let mut dynamic = None;
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        if elf.get(ph..ph + 4) == Some(&2u32.to_le_bytes()[..]) {
            // PT_DYNAMIC: (p_offset, p_filesz).
            dynamic = Some((u64_at(elf, ph + 8).ok_or_else(bad)?, u64_at(elf, ph + 32).ok_or_else(bad)?));
        }
    }
    let (off, size) = dynamic.ok_or("no dynamic section")?;
    let mut found = InitFini::default();
    for e in (off as usize..(off + size) as usize).step_by(16) {
        let (Some(tag), Some(val)) = (u64_at(elf, e), u64_at(elf, e + 8)) else { return Err(bad()) };
        match tag {
            0 => break,
            DT_INIT_ARRAY => found.init.0 = val,
            DT_FINI_ARRAY => found.fini.0 = val,
            DT_INIT_ARRAYSZ | DT_FINI_ARRAYSZ => {
                if tag == DT_INIT_ARRAYSZ {
                    found.init.1 = val;
                } else {
                    found.fini.1 = val;
                }
                elf[e + 8..e + 16].copy_from_slice(&0u64.to_le_bytes());
            }
            DT_PREINIT_ARRAYSZ if val != 0 => return Err("a shared object with a .preinit_array".into()),
            _ => {}
        }
    }
    Ok(found)
}

/// The function addresses of a relocated constructor or destructor array.
///
/// # Safety
/// `[base + vaddr, + bytes)` must be the loaded, relocated array (mapped readable).
unsafe fn read_array(base: u64, (vaddr, bytes): (u64, u64)) -> Vec<usize> {
    let n = bytes as usize / std::mem::size_of::<usize>();
    let p = (base + vaddr) as *const usize;
    // SAFETY: by the contract, n pointers are readable at p; the program never runs in
    // this process, so nothing writes them.
    (0..n).map(|i| unsafe { p.add(i).read() }).filter(|&f| f != 0 && f != usize::MAX).collect()
}

/// The program's `PT_TLS` segment, as loaded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TlsSegment {
    /// Address of the initialisation image.
    pub(crate) init: usize,
    pub(crate) filesz: usize,
    pub(crate) memsz: usize,
}

/// (load base, program headers as (kind, vaddr, memsz)).
type Segments = (u64, Vec<(u32, u64, u64, u64)>);

struct PhdrSearch {
    name: CString,
    found: Option<Segments>,
    /// (vaddr, filesz, memsz, align, module id) of the PT_TLS segment.
    tls: Option<(u64, u64, u64, u64, usize)>,
}

extern "C" fn phdr_cb(info: *mut libc::dl_phdr_info, _size: usize, data: *mut c_void) -> c_int {
    // SAFETY: dl_iterate_phdr passes a valid info and our own data pointer.
    let (info, search) = unsafe { (&*info, &mut *(data as *mut PhdrSearch)) };
    if info.dlpi_name.is_null() {
        return 0;
    }
    // SAFETY: dlpi_name is a NUL-terminated string.
    let name = unsafe { CStr::from_ptr(info.dlpi_name) };
    if name != search.name.as_c_str() {
        return 0;
    }
    let mut segs = Vec::new();
    for i in 0..info.dlpi_phnum as usize {
        // SAFETY: dlpi_phdr has dlpi_phnum entries.
        let ph = unsafe { &*info.dlpi_phdr.add(i) };
        let kind = match ph.p_type {
            libc::PT_LOAD if ph.p_flags & libc::PF_W != 0 => 1,
            libc::PT_LOAD => 0,
            libc::PT_GNU_RELRO => 2,
            libc::PT_TLS => {
                search.tls = Some((ph.p_vaddr, ph.p_filesz, ph.p_memsz, ph.p_align, info.dlpi_tls_modid));
                3
            }
            _ => continue,
        };
        segs.push((kind, ph.p_vaddr, ph.p_memsz, ph.p_filesz));
    }
    search.found = Some((info.dlpi_addr, segs));
    1
}

impl Image {
    /// `dlopen` the shared object at `path` in this process and locate its writable data.
    /// Call before creating a [`CProgram`]; never unloaded. Rewrites the file first so
    /// that the loader runs none of its constructors and destructors (see the module
    /// documentation): `path` must be a private copy.
    ///
    /// [`CProgram`]: crate::CProgram
    pub fn load(path: &Path) -> Result<Image, RuntimeError> {
        let cpath =
            CString::new(path.as_os_str().as_bytes()).map_err(|_| RuntimeError::Load("path contains NUL".into()))?;
        let io = |e: std::io::Error| RuntimeError::Load(format!("{}: {e}", path.display()));
        let mut elf = std::fs::read(path).map_err(io)?;
        let init_fini =
            disable_init_fini(&mut elf).map_err(|e| RuntimeError::Load(format!("{}: {e}", path.display())))?;
        std::fs::write(path, &elf).map_err(io)?;
        // SAFETY: dlopen of a shared object we compiled, whose constructors and
        // destructors the loader will not run (disabled above).
        let h = unsafe { libc::dlopen(cpath.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
        if h.is_null() {
            // SAFETY: dlerror returns a thread-local message or null.
            let e = unsafe { libc::dlerror() };
            let msg = if e.is_null() {
                "unknown error".into()
            } else {
                // SAFETY: non-null dlerror result is a C string.
                unsafe { CStr::from_ptr(e) }.to_string_lossy().into_owned()
            };
            return Err(RuntimeError::Load(msg));
        }
        // SAFETY: h is a valid handle; "main" is a C string.
        let main = unsafe { libc::dlsym(h, c"main".as_ptr()) };
        if main.is_null() {
            return Err(RuntimeError::Load("the program has no `main` function".into()));
        }
        let mut search = PhdrSearch { name: cpath, found: None, tls: None };
        // SAFETY: the callback only reads the info passed to it and writes our search.
        unsafe { libc::dl_iterate_phdr(Some(phdr_cb), &mut search as *mut PhdrSearch as *mut c_void) };
        let (base, segs) = search.found.ok_or_else(|| RuntimeError::Load("loaded image not found".into()))?;
        crate::exec::SITE_BASE.store(base, std::sync::atomic::Ordering::Relaxed);
        let tls = match search.tls {
            None => None,
            Some((vaddr, filesz, memsz, align, module)) => {
                if module == 0 || filesz > memsz || align > 4096 || memsz as usize > crate::mem::MAX_TLS {
                    return Err(RuntimeError::Load(format!(
                        "unsupported thread-local storage segment ({memsz} bytes, alignment {align}, module {module})"
                    )));
                }
                crate::tls::init();
                crate::tls::set_module(module);
                Some(TlsSegment { init: (base + vaddr) as usize, filesz: filesz as usize, memsz: memsz as usize })
            }
        };
        let page = 4096u64;
        let relro: Vec<(u64, u64)> = segs
            .iter()
            .filter(|s| s.0 == 2)
            .map(|s| ((base + s.1) & !(page - 1), (base + s.1 + s.2) & !(page - 1)))
            .collect();
        let mut writable = Vec::new();
        let mut bss = Vec::new();
        let (mut lo, mut hi) = (u64::MAX, 0);
        let mut loads = Vec::new();
        for &(kind, vaddr, memsz, filesz) in &segs {
            if kind > 1 {
                continue;
            }
            lo = lo.min(base + vaddr);
            hi = hi.max(base + vaddr + memsz);
            loads.push((base + vaddr, base + vaddr + memsz));
            if kind != 1 {
                continue;
            }
            let (mut s, e) = (base + vaddr, base + vaddr + memsz);
            for &(rs, re) in &relro {
                if rs <= s && re > s {
                    s = re.min(e);
                }
            }
            if e > s {
                writable.push((s as usize, (e - s) as usize));
            }
            // The loader maps whole zero pages beyond the file contents anonymously.
            let zero = (base + vaddr + filesz).div_ceil(page) * page;
            let zero_end = (base + vaddr + memsz) & !(page - 1);
            if zero_end > zero.max(s) {
                let z = zero.max(s);
                bss.push((z as usize, (zero_end - z) as usize));
            }
        }
        // SAFETY: dlsym returned the address of the program's `main`, a C function with
        // the standard signature.
        let main = unsafe { std::mem::transmute::<*mut c_void, MainFn>(main) };
        // SAFETY: the arrays the dynamic section described, loaded and relocated by dlopen.
        let (ctors, dtors) = unsafe { (read_array(base, init_fini.init), read_array(base, init_fini.fini)) };
        Ok(Image { base, range: (lo, hi), loads, main, writable, bss, tls, ctors, dtors })
    }

    /// The C string at `addr` if it lies inside a loaded segment of the image (a
    /// `__FILE__` string), at most 4 KiB.
    pub fn string_at(&self, addr: u64) -> Option<String> {
        let &(_, end) = self.loads.iter().find(|&&(s, e)| s <= addr && addr < e)?;
        let max = ((end - addr) as usize).min(4096);
        // SAFETY: [addr, addr + max) lies in one loaded segment, mapped readable for the
        // life of the process; the program never runs in this process, so nothing writes
        // it while we read.
        let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, max) };
        let end = bytes.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
    }
}
