/**
 * Test helpers: which processes of a process group are still alive (Linux /proc), and waiting a
 * little for the kernel to finish killing them.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Pids in process group `pgid` that are alive (zombies, already dead, do not count). */
export const liveGroupMembers = (pgid: number): number[] => {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited meanwhile
    }
    // pid (comm) state ppid pgrp ...: comm may hold spaces and parentheses, so split after the last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const pgrp = Number(fields[2]);
    if (pgrp === pgid && state !== 'Z' && state !== 'X') out.push(Number(entry));
  }
  return out;
};

export const isAlive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
};

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Polls (every 25 ms, at most `ms`) until `cond` holds; returns whether it did. */
export const eventually = async (cond: () => boolean, ms = 2000): Promise<boolean> => {
  const end = Date.now() + ms;
  for (;;) {
    if (cond()) return true;
    if (Date.now() > end) return false;
    await sleep(25);
  }
};
