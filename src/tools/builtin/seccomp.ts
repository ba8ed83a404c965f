/**
 * The seccomp filter of the sandbox: no file made inside may carry the setuid or setgid bit.
 *
 * bubblewrap maps the sandbox's user to the user that started it. When that is root, every file a
 * sandboxed program creates in the workspace is owned by the host's root, and a program that could
 * set the setuid bit (`cp /bin/bash x && chmod 4755 x`) would leave a root shell for any local user.
 * The filter makes every way of setting those bits fail with `EPERM`, before the kernel acts:
 *
 * - `chmod`, `fchmod`, `fchmodat`, `fchmodat2` with a mode holding `S_ISUID` or `S_ISGID`;
 * - `open`, `openat`, `creat` that create a file (`O_CREAT`, `O_TMPFILE`) with such a mode, and
 *   `mknod`, `mknodat`, `mkdir`, `mkdirat` with one;
 * - `openat2` (its mode is in a structure a filter cannot read) answers `ENOSYS`, so C libraries
 *   fall back to `openat`; `io_uring` (whose operations bypass seccomp) answers `ENOSYS` too;
 * - any other architecture's system calls (32-bit calls on x86-64, the x32 ABI) answer `ENOSYS`.
 *
 * Everything else is allowed: the sandbox's namespaces and read-only mounts do the rest. The filter
 * is classic BPF, assembled here (x86-64 and AArch64) and handed to `bwrap --seccomp`.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** One BPF instruction: `struct sock_filter`. Jumps are relative to the next instruction. */
interface Insn {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** Where a call's mode is, and whether it creates only with `O_CREAT`/`O_TMPFILE` in its flags. */
interface ModeCall {
  readonly nr: number;
  readonly mode: number;
  readonly flags?: number;
}

interface ArchTable {
  readonly audit: number;
  readonly modeCalls: ReadonlyArray<ModeCall>;
  readonly enosys: ReadonlyArray<number>;
  /** System call numbers at or above this belong to another ABI (x32). */
  readonly foreignFrom?: number;
}

/** Mode bits that may never be set inside the sandbox. */
export const FORBIDDEN_MODE_BITS = 0o6000;

const O_CREAT = 0o100;
const O_TMPFILE_BIT = 0o20000000;

const X86_64: ArchTable = {
  audit: 0xc000003e,
  modeCalls: [
    { nr: 90, mode: 1 }, // chmod(path, mode)
    { nr: 91, mode: 1 }, // fchmod(fd, mode)
    { nr: 268, mode: 2 }, // fchmodat(dirfd, path, mode)
    { nr: 452, mode: 2 }, // fchmodat2(dirfd, path, mode, flags)
    { nr: 2, mode: 2, flags: 1 }, // open(path, flags, mode)
    { nr: 257, mode: 3, flags: 2 }, // openat(dirfd, path, flags, mode)
    { nr: 85, mode: 1 }, // creat(path, mode)
    { nr: 133, mode: 1 }, // mknod(path, mode, dev)
    { nr: 259, mode: 2 }, // mknodat(dirfd, path, mode, dev)
    { nr: 83, mode: 1 }, // mkdir(path, mode)
    { nr: 258, mode: 2 }, // mkdirat(dirfd, path, mode)
  ],
  enosys: [437, 425, 426, 427], // openat2, io_uring_setup, io_uring_enter, io_uring_register
  foreignFrom: 0x40000000,
};

const AARCH64: ArchTable = {
  audit: 0xc00000b7,
  modeCalls: [
    { nr: 52, mode: 1 }, // fchmod
    { nr: 53, mode: 2 }, // fchmodat
    { nr: 452, mode: 2 }, // fchmodat2
    { nr: 56, mode: 3, flags: 2 }, // openat
    { nr: 33, mode: 2 }, // mknodat
    { nr: 34, mode: 2 }, // mkdirat
  ],
  enosys: [437, 425, 426, 427],
};

const TABLES: Readonly<Record<string, ArchTable>> = { x64: X86_64, arm64: AARCH64 };

// BPF opcodes
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
const RET_K = 0x06;

const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

// -------------------------------------------------------------------------------------------------
// constructors
// -------------------------------------------------------------------------------------------------

/** Whether the filter exists for this architecture (Node's `process.arch` names). */
export const seccompSupported = (arch: string): boolean => TABLES[arch] !== undefined;

/**
 * The filter for `arch` as the bytes `bwrap --seccomp FD` reads (`struct sock_filter[]`, native
 * little-endian), or undefined for an architecture it does not know.
 */
export const setuidFilter = (arch: string): Uint8Array | undefined => {
  const t = TABLES[arch];
  if (t === undefined) return undefined;
  return encode(assemble(t));
};

// -------------------------------------------------------------------------------------------------
// assembling
// -------------------------------------------------------------------------------------------------

type Label = 'allow' | 'eperm' | 'enosys';
type Op = { readonly insn: Insn } | { readonly jump: number; readonly k: number; readonly jt: Label | 0; readonly jf: Label | 0 };

/** seccomp_data: nr at 0, arch at 4, args[i] at 16 + 8i (low 32 bits first, little-endian). */
const argLow = (i: number): number => 16 + 8 * i;

const assemble = (t: ArchTable): ReadonlyArray<Insn> => {
  // each call's check is a block; a dispatch compares the number and jumps to its block
  const blocks: Array<ReadonlyArray<Op>> = t.modeCalls.map((c) => {
    const ops: Op[] = [];
    if (c.flags !== undefined) {
      ops.push({ insn: { code: LD_W_ABS, jt: 0, jf: 0, k: argLow(c.flags) } });
      // not creating: the mode is not used
      ops.push({ jump: JSET_K, k: O_CREAT | O_TMPFILE_BIT, jt: 0, jf: 'allow' });
    }
    ops.push({ insn: { code: LD_W_ABS, jt: 0, jf: 0, k: argLow(c.mode) } });
    ops.push({ jump: JSET_K, k: FORBIDDEN_MODE_BITS, jt: 'eperm', jf: 'allow' });
    return ops;
  });
  const head: Op[] = [
    { insn: { code: LD_W_ABS, jt: 0, jf: 0, k: 4 } },
    { jump: JEQ_K, k: t.audit, jt: 0, jf: 'enosys' },
    { insn: { code: LD_W_ABS, jt: 0, jf: 0, k: 0 } },
  ];
  if (t.foreignFrom !== undefined) head.push({ jump: JGE_K, k: t.foreignFrom, jt: 'enosys', jf: 0 });
  for (const nr of t.enosys) head.push({ jump: JEQ_K, k: nr, jt: 'enosys', jf: 0 });
  // layout: head, dispatch (one compare per call), allow (no call matched), the blocks, then the
  // three returns: every jump is forward, as BPF requires
  const dispatchStart = head.length;
  const firstBlock = dispatchStart + t.modeCalls.length + 1;
  const blockStarts: number[] = [];
  let at = firstBlock;
  for (const b of blocks) {
    blockStarts.push(at);
    at += b.length;
  }
  const labels: Record<Label, number> = { allow: at, eperm: at + 1, enosys: at + 2 };
  const out: Insn[] = [];
  const jump = (from: number, to: number): number => {
    const d = to - (from + 1);
    if (d < 0 || d > 255) throw new Error(`seccomp: jump out of range (${d})`);
    return d;
  };
  const emit = (op: Op): void => {
    const here = out.length;
    if ('insn' in op) out.push(op.insn);
    else out.push({ code: op.jump, jt: op.jt === 0 ? 0 : jump(here, labels[op.jt]), jf: op.jf === 0 ? 0 : jump(here, labels[op.jf]), k: op.k });
  };
  head.forEach(emit);
  t.modeCalls.forEach((c, i) => out.push({ code: JEQ_K, jt: jump(out.length, blockStarts[i] as number), jf: 0, k: c.nr }));
  out.push({ code: RET_K, jt: 0, jf: 0, k: RET_ALLOW });
  for (const b of blocks) b.forEach(emit);
  out.push({ code: RET_K, jt: 0, jf: 0, k: RET_ALLOW });
  out.push({ code: RET_K, jt: 0, jf: 0, k: RET_ERRNO | EPERM });
  out.push({ code: RET_K, jt: 0, jf: 0, k: RET_ERRNO | ENOSYS });
  return out;
};

const encode = (insns: ReadonlyArray<Insn>): Uint8Array => {
  const buf = new Uint8Array(insns.length * 8);
  const view = new DataView(buf.buffer);
  insns.forEach((x, i) => {
    view.setUint16(i * 8, x.code, true);
    view.setUint8(i * 8 + 2, x.jt);
    view.setUint8(i * 8 + 3, x.jf);
    view.setUint32(i * 8 + 4, x.k >>> 0, true);
  });
  return buf;
};
