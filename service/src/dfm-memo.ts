// DFM reports the in-process engine made for quotes, kept per (design and its flats' K-factors,
// configuration, catalog version): a design's DFM under one configuration is the same every time,
// so a quote burst on one design works the report out once (issue 18.3: the request path does no
// DFM twice). Only a report's id and created_at differ between quotes; those are the quote's own.
import { BoundedMap } from '@kerf/common';
import { deepFreeze, dfm, type Catalog, type ConfigurationInput, type DfmContext, type DfmReport, type Design } from '@kerf/engine';

/** Reports kept; the least recently used goes first. A report of a small part is ~20 KB. */
const MAX_REPORTS = 256;

export class DfmMemo {
  private readonly reports = new BoundedMap<string, DfmReport>(MAX_REPORTS);

  /**
   * Item's report: the kept one for `designKey` (the design id and its flats' K map: what the
   * report reads of the design) under this configuration and catalog, else dfm()'s, kept.
   * A configuration dfm() refuses throws as dfm() does and keeps nothing.
   */
  report(designKey: string, design: Design, configuration: ConfigurationInput | undefined, catalog: Catalog, context: DfmContext): DfmReport {
    const key = `${designKey}\u0000${catalog.version}\u0000${JSON.stringify(configuration ?? null)}`;
    let kept = this.reports.get(key);
    if (!kept) {
      // frozen: every quote of the key shares its parts, so none may change them
      kept = deepFreeze(dfm(design, configuration, catalog, context));
      this.reports.set(key, kept);
    }
    return { ...kept, id: context.id, created_at: context.now };
  }
}
