// The money side of the catalog: machine rates, set-ups, and quantity breaks. Integer cents unless named.
// Calibrated so a 100 x 50 mm 1.5 mm steel bracket with two bends prices in the range the public
// instant-quote services show (a few dollars at quantity 10, more at quantity 1).
import type { RateCard } from './types.ts';

export const DEFAULT_RATES: RateCard = {
  laser_cents_per_min: 250, // fibre laser with operator, $150/h
  tube_laser_cents_per_min: 300,
  nest_spacing_mm: 3, // half the 6 mm part-to-part gap on each side
  sheet_scrap_fraction: 0.15,
  nest_edge_margin_mm: 10, // a fibre laser's clamps and edge: parts stay 10 mm inside the sheet
  nest_charge: 'used_rectangles', // docs/nesting.md "Material cost"
  tube_scrap_fraction: 0.05,
  cut_setup_cents: 1500,
  bend_cents: 90,
  bend_setup_cents: 600,
  bend_mass_factor_per_kg: 0.25,
  bend_mass_factor_max: 3,
  bend_long_threshold_mm: 600,
  bend_long_multiplier: 1.5,
  tap_install_cents: 60,
  countersink_cents: 120,
  finish_setup_cents: 2000,
  weld_cents_per_mm: { mig: 6, tig: 12 },
  weld_setup_cents: 2500,
  weld_access_multiplier: { open: 1, tight: 1.4, blind: 2 },
  weld_finish_cents_per_mm: { none: 0, rough: 2, fine: 6 },
  // one service advertises 20 % off at 2, 40 % at 10, 50 % at 50 (mostly set-up amortisation);
  // these are the run-cost breaks on top of amortisation
  volume_breaks: [[1, 1], [10, 0.95], [50, 0.9], [200, 0.85], [1000, 0.8]],
  min_line_amount_cents: 2500, // above the cut set-up so it binds for tiny one-off parts
  expedite_fraction_per_day: 0.2, // published: ~20 % per production day saved
  quote_validity_days: 30,
};
