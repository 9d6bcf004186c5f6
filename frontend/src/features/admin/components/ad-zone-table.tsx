import { Link } from 'react-router';
import { formatNumber } from '@/lib/format';
import type { AdStats, AdZone } from '../api/ad-types';
import { useUpdateAdZone } from '../api/ad-zones';
import { failureNotice, useAdminNotice } from './admin-notice';
import { KIND_LABELS, placementLabel } from './ad-zone-rules';

interface AdZoneTableProps {
  zones: AdZone[];
  /** The period's figures, for each zone's impressions and clicks; undefined while they load. */
  stats: AdStats | undefined;
  onEdit: (zone: AdZone) => void;
  onDelete: (zone: AdZone) => void;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The zones, a row each: what they are, who sees them, the period's impressions and clicks, an on/off switch. */
export function AdZoneTable({ zones, stats, onEdit, onDelete }: AdZoneTableProps) {
  const update = useUpdateAdZone();
  const notice = useAdminNotice();

  const toggle = (zone: AdZone) => {
    const active = !zone.active;
    update.mutate(
      { id: zone.id, changes: { active } },
      {
        onSuccess: (saved) => notice.success(`The zone “${saved.name}” is ${saved.active ? 'on' : 'off'}.`),
        onError: (error) => notice.error(failureNotice(`The zone “${zone.name}” could not be switched ${active ? 'on' : 'off'}`, error)),
      },
    );
  };

  const figure = (zone: AdZone, key: 'impressions' | 'clicks') => {
    const totals = stats?.zones.find((z) => z.id === zone.id)?.totals;
    return totals ? formatNumber(totals[key]) : '–';
  };

  return (
    <div className="video-table__scroll">
      <table className="admin-table ad-zone-table">
        <caption className="visually-hidden">Ad zones, with their impressions and clicks of the {stats ? `last ${stats.days} days` : 'period'}</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Placement</th>
            <th scope="col">Kind</th>
            <th scope="col">Brands</th>
            <th scope="col">Members</th>
            <th scope="col">Embeds</th>
            <th scope="col">Cap</th>
            <th scope="col" className="admin-table__number">
              Weight
            </th>
            <th scope="col">Active</th>
            <th scope="col" className="admin-table__number">
              Impressions
            </th>
            <th scope="col" className="admin-table__number">
              Clicks
            </th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {zones.map((zone) => (
            <tr key={zone.id}>
              <th scope="row" className="taxonomy-table__name">
                {zone.name}
              </th>
              <td>{placementLabel(zone.placement)}</td>
              <td>{KIND_LABELS[zone.kind]}</td>
              <td>{zone.brands.join(', ')}</td>
              <td>{yesNo(zone.members)}</td>
              <td>{yesNo(zone.embeds)}</td>
              <td>{zone.frequencyCap ? `${zone.frequencyCap.count} per ${zone.frequencyCap.hours} h` : 'None'}</td>
              <td className="admin-table__number">{zone.weight}</td>
              <td>
                <input
                  type="checkbox"
                  role="switch"
                  aria-label={`Active: ${zone.name}`}
                  checked={zone.active}
                  disabled={update.isPending && update.variables.id === zone.id}
                  onChange={() => toggle(zone)}
                />
              </td>
              <td className="admin-table__number">{figure(zone, 'impressions')}</td>
              <td className="admin-table__number">{figure(zone, 'clicks')}</td>
              <td>
                <div className="taxonomy-table__actions">
                  <button className="button button--quiet" type="button" aria-label={`Edit ${zone.name}`} onClick={() => onEdit(zone)}>
                    Edit
                  </button>
                  <Link className="button button--quiet" to={`/admin/ads/${zone.id}`} aria-label={`Figures of ${zone.name}`}>
                    Figures
                  </Link>
                  <button
                    className="button button--quiet"
                    type="button"
                    aria-label={`Delete ${zone.name}`}
                    aria-haspopup="dialog"
                    onClick={() => onDelete(zone)}
                  >
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
