// The virtual clock's setting, kept in the store as it changes. A change is saved at once, each
// save after the one before it (two in flight on a pool could commit out of order), and on a
// durable store an answer waits for the save under way before it leaves (app.ts), as it waits for
// its journal write: a clock change acknowledged (a freeze, an advance) is kept across a restart
// or a takeover like a record. A save that fails is reported and made again by the next wait.
import type { ClockSetting, VirtualClock } from '../clock.js';
import type { SandboxStore } from './sandbox-store.js';
import { reportStoreFailure } from './report-store-failure.js';

export class ClockSaves {
  /** The setting changed since the last save began (or the last save failed). */
  private unsaved = false;
  /** The last save begun, until it settles. */
  private saving: Promise<void> | undefined;

  constructor(
    private readonly clock: VirtualClock,
    /** Read at each save: the store's clock may be wrapped after start (a test holding its writes). */
    private readonly store: Pick<SandboxStore, 'clock'>,
  ) {
    clock.onChange(() => {
      this.unsaved = true;
      this.pending()?.catch((error: unknown) => reportStoreFailure('the clock setting could not be stored', error));
    });
  }

  /** The save under way, begun now when the setting is not yet saved; undefined when it is kept. */
  pending(): Promise<void> | undefined {
    if (this.unsaved) this.begin(this.clock.setting());
    return this.saving;
  }

  /** Saves the setting again, whatever was saved (the store was emptied under it). */
  again(): Promise<void> {
    this.unsaved = true;
    return this.pending()!;
  }

  private begin(setting: ClockSetting): void {
    this.unsaved = false;
    const saving = (this.saving ?? Promise.resolve()).catch(() => undefined).then(() => this.store.clock.save(setting));
    this.saving = saving;
    saving.then(
      () => {
        if (this.saving === saving) this.saving = undefined;
      },
      () => {
        if (this.saving !== saving) return;
        this.saving = undefined;
        this.unsaved = true;
      },
    );
  }
}
