// The kinds of bought-in hardware a part can be taken for, and what each is called in words.

import { HARDWARE_KIND_VALUES } from '../contract/design.ts';

export const HARDWARE_KINDS = HARDWARE_KIND_VALUES;
export type HardwareKind = (typeof HARDWARE_KINDS)[number];

export const KIND_WORDS: Record<HardwareKind, string> = {
  self_clinching_nut: 'self-clinching nut', self_clinching_stud: 'self-clinching stud', self_clinching_standoff: 'self-clinching standoff',
  rivet_nut: 'rivet nut', rivet: 'rivet', screw: 'screw', bolt: 'bolt', nut: 'nut', washer: 'washer', pin: 'pin',
  threaded_insert: 'threaded insert', bearing: 'bearing', standoff: 'standoff', fastener: 'fastener',
};

/** The catalog kind a self-clinching part is installed from (taps are cut, not bought). */
export function catalogKindOf(kind: HardwareKind): 'nuts' | 'studs' | 'standoffs' | null {
  return kind === 'self_clinching_nut' ? 'nuts' : kind === 'self_clinching_stud' ? 'studs' : kind === 'self_clinching_standoff' ? 'standoffs' : null;
}
