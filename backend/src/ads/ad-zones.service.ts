import type { AdKind, AdPlacement, Brand } from '@hunktube/shared';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { InvalidationBus } from '../common/cache/invalidation-bus';
import { InvalidInputError, NotFoundError } from '../common/errors/domain-errors';
import { adSources, zoneProblem, type AdSources, type AdZone } from './ad-zone-rules';
import type { CreateAdZoneDto, UpdateAdZoneDto } from './dto/ad-zone.dto';

export const AD_ZONE_NOT_FOUND = 'Ad zone not found';
/** While the invalidation bus is down, how long a read of the zones answers before the next reads them again. */
export const AD_ZONES_OUTAGE_REREAD_MS = 5_000;

interface AdZoneRow {
  id: number;
  name: string;
  placement: AdPlacement;
  kind: AdKind;
  vast_url: string | null;
  html: string | null;
  hosts: string[];
  brands: Brand[];
  members: boolean;
  embeds: boolean;
  skip_after: number | null;
  cap_count: number | null;
  cap_hours: number | null;
  weight: number;
  active: boolean;
}

const zoneOf = (row: AdZoneRow): AdZone => ({
  id: Number(row.id),
  name: row.name,
  placement: row.placement,
  kind: row.kind,
  vastUrl: row.vast_url,
  html: row.html,
  hosts: row.hosts,
  brands: row.brands,
  members: row.members,
  embeds: row.embeds,
  skipAfter: row.skip_after,
  frequencyCap: row.cap_count === null || row.cap_hours === null ? null : { count: row.cap_count, hours: row.cap_hours },
  weight: row.weight,
  active: row.active,
});

interface KeptZones {
  zones: AdZone[];
  sources: AdSources;
  key: string;
}

const COLUMNS = 'id, name, placement, kind, vast_url, html, hosts, brands, members, embeds, skip_after, cap_count, cap_hours, weight, active';

/**
 * Ad zones (issue #35, docs/ads.md): an admin's writes, and every zone kept in this process (a handful of rows)
 * until a write announces AdZonesChanged, so that GET /api/ads and the pages' CSP read memory and a change applies
 * on the next page, in every process, without a restart.
 */
@Injectable()
export class AdZonesService {
  private kept: Promise<KeptZones> | null = null;
  private readAt = 0;
  /** The last zones read, answered while the database does not answer. */
  private lastGood: KeptZones | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly bus: InvalidationBus,
  ) {
    bus.declareCache('ad zones and their CSP sources', {
      AdZonesChanged: () => this.forget(),
      CachesCleared: () => this.forget(),
    });
  }

  private forget(): void {
    this.kept = null;
  }

  /**
   * Every zone, by id, as last read: read again after a change, and while the bus is down (when another process's
   * change would not be heard) at most every AD_ZONES_OUTAGE_REREAD_MS, so a burst of pages shares one read.
   */
  async zones(): Promise<AdZone[]> {
    return (await this.current()).zones;
  }

  /** What the pages' CSP must let in for the active zones, and a key that differs when that does. */
  async sources(): Promise<{ key: string; sources: AdSources }> {
    const { sources, key } = await this.current();
    return { sources, key };
  }

  private current(): Promise<KeptZones> {
    if (this.kept && (this.bus.live || Date.now() - this.readAt < AD_ZONES_OUTAGE_REREAD_MS)) return this.kept;
    const read = this.db.query<AdZoneRow[]>(`SELECT ${COLUMNS} FROM ad_zones ORDER BY id`).then(
      (rows) => {
        const zones = rows.map(zoneOf);
        const sources = adSources(zones);
        return (this.lastGood = { zones, sources, key: JSON.stringify(sources) });
      },
      (error: unknown) => {
        // The database does not answer: the zones as last read (no admin can change them meanwhile), not kept,
        // so the next request asks again; never read, the caller goes without (no ads, the plain CSP).
        if (this.kept === read) this.kept = null;
        if (this.lastGood) return this.lastGood;
        throw error;
      },
    );
    this.kept = read;
    this.readAt = Date.now();
    return read;
  }

  async create(dto: CreateAdZoneDto): Promise<AdZone> {
    const zone = this.checked({
      name: dto.name,
      placement: dto.placement,
      kind: dto.kind,
      vastUrl: dto.vastUrl ?? null,
      html: dto.html ?? null,
      hosts: [...new Set(dto.hosts ?? [])],
      brands: dto.brands,
      members: dto.members ?? false,
      embeds: dto.embeds ?? false,
      skipAfter: dto.skipAfter ?? null,
      frequencyCap: dto.frequencyCap ?? null,
      weight: dto.weight ?? 1,
      active: dto.active ?? true,
    });
    const [row] = await this.db.query<AdZoneRow[]>(
      `INSERT INTO ad_zones (name, placement, kind, vast_url, html, hosts, brands, members, embeds, skip_after, cap_count, cap_hours, weight, active)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING ${COLUMNS}`,
      this.values(zone),
    );
    this.bus.publish({ type: 'AdZonesChanged' });
    return zoneOf(row);
  }

  /**
   * Any subset of the fields. A change of kind leaves the other kind's fields behind (a vast zone made html loses
   * its tag URL and skip offset); sending a field the kind does not take is a 400.
   */
  async update(id: number, dto: UpdateAdZoneDto): Promise<AdZone> {
    const before = await this.one(id);
    const kind = dto.kind ?? before.kind;
    const carried = <F extends 'vastUrl' | 'html' | 'skipAfter'>(field: F, own: AdKind): AdZone[F] | null => (kind === own ? before[field] : null);
    const zone = this.checked({
      name: dto.name ?? before.name,
      placement: dto.placement ?? before.placement,
      kind,
      vastUrl: dto.vastUrl !== undefined ? dto.vastUrl : carried('vastUrl', 'vast'),
      html: dto.html !== undefined ? dto.html : carried('html', 'html'),
      hosts: dto.hosts ? [...new Set(dto.hosts)] : before.hosts,
      brands: dto.brands ?? before.brands,
      members: dto.members ?? before.members,
      embeds: dto.embeds ?? before.embeds,
      skipAfter: dto.skipAfter !== undefined ? dto.skipAfter : carried('skipAfter', 'vast'),
      frequencyCap: dto.frequencyCap !== undefined ? dto.frequencyCap : before.frequencyCap,
      weight: dto.weight ?? before.weight,
      active: dto.active ?? before.active,
    });
    // A SELECT around the UPDATE, so the driver answers with rows rather than [rows, affected count].
    const rows = await this.db.query<AdZoneRow[]>(
      `WITH changed AS (UPDATE ad_zones SET name = $1, placement = $2, kind = $3, vast_url = $4, html = $5, hosts = $6, brands = $7, members = $8,
         embeds = $9, skip_after = $10, cap_count = $11, cap_hours = $12, weight = $13, active = $14, updated_at = now()
       WHERE id = $15 RETURNING ${COLUMNS}) SELECT * FROM changed`,
      [...this.values(zone), id],
    );
    if (!rows[0]) throw new NotFoundError(AD_ZONE_NOT_FOUND);
    this.bus.publish({ type: 'AdZonesChanged' });
    return zoneOf(rows[0]);
  }

  /** Removes a zone with its figures and its members' impressions. */
  async remove(id: number): Promise<void> {
    const gone = await this.db.query<{ id: number }[]>('WITH gone AS (DELETE FROM ad_zones WHERE id = $1 RETURNING id) SELECT id FROM gone', [id]);
    if (gone.length === 0) throw new NotFoundError(AD_ZONE_NOT_FOUND);
    this.bus.publish({ type: 'AdZonesChanged' });
  }

  /** One zone, from the database (an admin's edit starts from what is stored, not from a kept copy). */
  async one(id: number): Promise<AdZone> {
    const [row] = await this.db.query<AdZoneRow[]>(`SELECT ${COLUMNS} FROM ad_zones WHERE id = $1`, [id]);
    if (!row) throw new NotFoundError(AD_ZONE_NOT_FOUND);
    return zoneOf(row);
  }

  private checked(zone: Omit<AdZone, 'id'>): Omit<AdZone, 'id'> {
    const problem = zoneProblem(zone);
    if (problem) throw new InvalidInputError(problem);
    return zone;
  }

  private values(zone: Omit<AdZone, 'id'>): unknown[] {
    return [
      zone.name, zone.placement, zone.kind, zone.vastUrl, zone.html, zone.hosts, zone.brands, zone.members, zone.embeds,
      zone.skipAfter, zone.frequencyCap?.count ?? null, zone.frequencyCap?.hours ?? null, zone.weight, zone.active,
    ];
  }
}
