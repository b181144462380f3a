//! The program image: the shared object `dlopen`ed once in the parent, its `main`, its
//! writable data (what a persistent worker restores between executions) and its
//! thread-local storage segment.

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
    pub(crate) main: MainFn,
    pub(crate) writable: Vec<(usize, usize)>,
    pub(crate) tls: Option<TlsSegment>,
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
type Segments = (u64, Vec<(u32, u64, u64)>);

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
        segs.push((kind, ph.p_vaddr, ph.p_memsz));
    }
    search.found = Some((info.dlpi_addr, segs));
    1
}

impl Image {
    /// `dlopen` the shared object at `path` in this process and locate its writable data.
    /// Call before creating a [`CProgram`]; never unloaded.
    pub fn load(path: &Path) -> Result<Image, RuntimeError> {
        let cpath =
            CString::new(path.as_os_str().as_bytes()).map_err(|_| RuntimeError::Load("path contains NUL".into()))?;
        // SAFETY: dlopen of a shared object we compiled; its constructors run here.
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
        let (mut lo, mut hi) = (u64::MAX, 0);
        for &(kind, vaddr, memsz) in &segs {
            if kind > 1 {
                continue;
            }
            lo = lo.min(base + vaddr);
            hi = hi.max(base + vaddr + memsz);
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
        }
        // SAFETY: dlsym returned the address of the program's `main`, a C function with
        // the standard signature.
        let main = unsafe { std::mem::transmute::<*mut c_void, MainFn>(main) };
        Ok(Image { base, range: (lo, hi), main, writable, tls })
    }

    /// The C string at `addr` if it lies inside the image (a `__FILE__` string).
    pub fn string_at(&self, addr: u64) -> Option<String> {
        if addr < self.range.0 || addr >= self.range.1 {
            return None;
        }
        let max = (self.range.1 - addr) as usize;
        // SAFETY: [addr, range.1) is mapped readable (part of the loaded image); we read at
        // most up to its end.
        let bytes = unsafe { std::slice::from_raw_parts(addr as *const u8, max) };
        let end = bytes.iter().position(|&b| b == 0)?;
        Some(String::from_utf8_lossy(&bytes[..end]).into_owned())
    }
}
