import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { ApiError } from '@/lib/api/client';
import type { AdZone } from '../api/ad-types';
import { useAdZones, useDeleteAdZone } from '../api/ad-zones';
import { useAdStats, useAdZoneStats } from '../api/get-ad-stats';
import { STATS_PERIODS, type StatsPeriod } from '../api/get-video-stats';
import { useAdminNotice } from './admin-notice';
import { AdDailyFigures, AdTotals, AdZoneTotalsTable, sumDays } from './ad-zone-figures';
import { AdZoneForm } from './ad-zone-form';
import { AdZoneTable } from './ad-zone-table';
import { LoadState } from './load-state';
import { PeriodPicker } from './period-picker';
import { failureText } from './taxonomy-section';

/**
 * /admin/ads (docs/ads.md): the zones with the period's impressions and clicks, the form that creates or edits
 * one, and the period's figures, all zones summed per day and each zone's totals, as the site's figures are shown.
 */
export function AdZonesPage() {
  const id = useId();
  const [days, setDays] = useState<StatsPeriod>(30);
  const zones = useAdZones();
  const stats = useAdStats(days);
  const remove = useDeleteAdZone();
  const notice = useAdminNotice();
  const [editing, setEditing] = useState<AdZone | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdZone | null>(null);
  const zonesHeading = useRef<HTMLHeadingElement>(null);

  /** The form closed: the focus goes back to the zones, where the change shows. */
  const closeForm = (message?: string) => {
    setEditing(null);
    if (message) notice.success(message);
    setTimeout(() => zonesHeading.current?.focus());
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const zone = deleting;
    remove.mutate(zone.id, {
      onSuccess: () => {
        setDeleting(null);
        if (editing !== 'new' && editing?.id === zone.id) setEditing(null);
        notice.success(`Deleted the zone “${zone.name}”.`);
        // Its row and its Delete button are gone: the focus goes to the zones, after the dialog gave it back.
        setTimeout(() => zonesHeading.current?.focus());
      },
    });
  };

  const list = zones.data?.data ?? [];

  return (
    <section className="admin-page ads" aria-labelledby={`${id}-heading`}>
      <div className="admin-page__head">
        <h1 id={`${id}-heading`}>Ads</h1>
        <PeriodPicker periods={STATS_PERIODS} value={days} onChange={setDays} />
      </div>

      {editing && (
        <AdZoneForm key={editing === 'new' ? 'new' : editing.id} zone={editing === 'new' ? null : editing} onDone={closeForm} onCancel={() => closeForm()} />
      )}

      <section className="edit-video__section" aria-labelledby={`${id}-zones`}>
        <div className="video-stats__head">
          <h2 id={`${id}-zones`} ref={zonesHeading} tabIndex={-1}>
            Zones
          </h2>
          <button className="button" type="button" disabled={editing === 'new'} onClick={() => setEditing('new')}>
            New zone
          </button>
        </div>
        {zones.isPending ? (
          <p className="notice" aria-busy="true">
            Loading the zones…
          </p>
        ) : zones.isError ? (
          <div className="notice" role="alert">
            <p>The zones could not be loaded.</p>
            <button className="button" type="button" onClick={() => void zones.refetch()}>
              Try again
            </button>
          </div>
        ) : list.length === 0 ? (
          <p className="notice">No ad zone yet: the site shows no ads.</p>
        ) : (
          <AdZoneTable
            zones={list}
            stats={stats.data}
            onEdit={setEditing}
            onDelete={(zone) => {
              remove.reset();
              setDeleting(zone);
            }}
          />
        )}
      </section>

      <section className="edit-video__section" aria-labelledby={`${id}-all`}>
        <h2 id={`${id}-all`}>All zones</h2>
        <LoadState what="ad figures" query={stats} />
        {stats.data && (
          <>
            <AdTotals totals={sumDays(stats.data.daily)} label={`All zones, last ${stats.data.days} days`} />
            <AdDailyFigures
              label={`Ad figures per day, all zones, last ${stats.data.days} days`}
              daily={stats.data.daily}
              filename={`ads-last-${stats.data.days}-days.csv`}
            />
          </>
        )}
      </section>

      {stats.data && (
        <section className="edit-video__section" aria-labelledby={`${id}-each`}>
          <h2 id={`${id}-each`}>Each zone</h2>
          <AdZoneTotalsTable stats={stats.data} />
        </section>
      )}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete ad zone"
        confirmLabel="Delete zone"
        busy={remove.isPending}
        error={remove.error ? deleteFailure(remove.error) : null}
        onConfirm={confirmDelete}
        onCancel={() => setDeleting(null)}
      >
        {deleting && `Delete the zone “${deleting.name}”? Its ads stop at once, and its figures go with it. This cannot be undone.`}
      </ConfirmDialog>
    </section>
  );
}

function deleteFailure(error: unknown): string {
  if (error instanceof ApiError && error.statusCode === 404) return 'This zone no longer exists.';
  return failureText(error, 'The zone could not be deleted.');
}

/** /admin/ads/:id: one zone's figures per day over 7, 30 or 90 days, with its totals. */
export function AdZoneFiguresPage({ zoneId }: { zoneId: number }) {
  const id = useId();
  const [days, setDays] = useState<StatsPeriod>(30);
  const stats = useAdZoneStats(zoneId, days);
  const data = stats.data;

  if (stats.error instanceof ApiError && stats.error.statusCode === 404) {
    return (
      <section className="message-page">
        <h1>Zone not found</h1>
        <p>This ad zone does not exist or has been deleted.</p>
        <Link className="button" to="/admin/ads">
          Back to the ad zones
        </Link>
      </section>
    );
  }

  return (
    <section className="admin-page" aria-labelledby={`${id}-heading`}>
      <nav className="admin-page__links" aria-label="This zone">
        <Link to="/admin/ads">Back to the ad zones</Link>
      </nav>
      <div className="admin-page__head">
        <h1 id={`${id}-heading`}>{data ? `Figures of “${data.name}”` : 'Figures of the zone'}</h1>
        <PeriodPicker periods={STATS_PERIODS} value={days} onChange={setDays} />
      </div>
      <LoadState what="figures" query={stats} />
      {data && (
        <div className="edit-video__section">
          <AdTotals totals={data.totals} label={`${data.name}, last ${data.days} days`} />
          <AdDailyFigures
            label={`Ad figures per day, ${data.name}, last ${data.days} days`}
            daily={data.daily}
            filename={`ad-zone-${data.id}-last-${data.days}-days.csv`}
          />
        </div>
      )}
    </section>
  );
}
