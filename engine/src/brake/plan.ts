// The press-brake plan of one part: the bend table and the per-bend figures (the DFM report's bend_plan).

export interface BendPlanStep {
  step: number;
  bend_id: number;
  angle_degrees: number;
  direction: 'up' | 'down';
  side_up: 'top' | 'bottom';
  behind_punch: 'left' | 'right';
  punch_id: string;
  punch_length_mm: number;
  die_id: string;
  back_gauge_mm: number | null;
  force_kn: number | null;
}

export interface BendPlanBend {
  bend_id: number;
  die_id: string | null;
  v_opening_mm: number | null;
  natural_radius_mm: number | null;
  modelled_radius_mm: number;
  k_factor: number | null;
  flat_change_mm: number | null;
  force_kn_per_m: number | null;
  force_kn: number | null;
  shortest_flange_mm: number | null;
  flange_needed_mm: number | null;
  flange_on_die: boolean;
}

export interface BendPlan {
  status: 'found' | 'none' | 'stopped' | 'not_checked';
  message: string | null;
  brake_id: string;
  sequence: BendPlanStep[];
  bends: BendPlanBend[];
  tries: number;
  checks: number;
}
