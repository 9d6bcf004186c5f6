import { readFileSync } from 'node:fs';

/**
 * `node backend/dist-bench/bench/heap-diff.js start.heapsnapshot end.heapsnapshot [rows]`: what grew between two V8
 * heap snapshots (as `SOAK_HEAP_SNAPSHOTS` has the soak write them), by kind of object: count and bytes at each
 * end, largest growth first. A Map's or Set's hash table is counted with it (its own size plus the arrays it
 * holds directly), so a cache that fills shows under its class's Map; the largest single Maps and Sets of the
 * end snapshot follow, with the property or variable that holds them.
 */
interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] } };
  nodes: number[];
  edges: number[];
  strings: string[];
}

interface Group {
  count: number;
  bytes: number;
}

function load(file: string) {
  const s = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const nf = s.snapshot.meta.node_fields;
  const ef = s.snapshot.meta.edge_fields;
  const nodeTypes = s.snapshot.meta.node_types[0];
  const edgeTypes = s.snapshot.meta.edge_types[0];
  const N = nf.length;
  const E = ef.length;
  const [iType, iName, iSize, iEdges] = ['type', 'name', 'self_size', 'edge_count'].map((f) => nf.indexOf(f));
  const [eType, eName, eTo] = ['type', 'name_or_index', 'to_node'].map((f) => ef.indexOf(f));
  const count = s.nodes.length / N;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += s.nodes[i * N + iEdges] * E;
    firstEdge[i + 1] = e;
  }
  const type = (i: number) => nodeTypes[s.nodes[i * N + iType]];
  const name = (i: number) => s.strings[s.nodes[i * N + iName]];
  const size = (i: number) => s.nodes[i * N + iSize];
  /** A Map's or Set's own size plus what it holds through internal edges (its hash table). */
  const withTable = (i: number) => {
    let bytes = size(i);
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
      if (edgeTypes[s.edges[e + eType]] !== 'internal') continue;
      const to = s.edges[e + eTo] / N;
      if (type(to) === 'array' || type(to) === 'hidden') bytes += size(to);
    }
    return bytes;
  };
  const groups = new Map<string, Group>();
  const big: { key: string; bytes: number; holder: string }[] = [];
  const isCollection = (i: number) => type(i) === 'object' && (name(i) === 'Map' || name(i) === 'Set');
  const holders = new Map<number, string>();
  for (let i = 0; i < count; i++) {
    for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
      const to = s.edges[e + eTo] / N;
      if (!isCollection(to) || holders.has(to)) continue;
      const et = edgeTypes[s.edges[e + eType]];
      if (et === 'property' || et === 'context') holders.set(to, `${name(i)}.${s.strings[s.edges[e + eName]]}`);
    }
  }
  for (let i = 0; i < count; i++) {
    const t = type(i);
    const key = t === 'object' || t === 'closure' ? `${t} ${name(i)}` : t === 'string' || t === 'concatenated string' || t === 'sliced string' ? 'string' : `${t} ${name(i).slice(0, 40)}`;
    const bytes = isCollection(i) ? withTable(i) : size(i);
    const g = groups.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += bytes;
    groups.set(key, g);
    if (isCollection(i) && bytes > 64 * 1024) big.push({ key: name(i), bytes, holder: holders.get(i) ?? '?' });
  }
  // Who holds it: each node is put on one shortest path from the roots (weak edges aside) and counted under the
  // nearest instance of a named class on that path, with the property it is held by (`CatalogueCache.rows`).
  const generic = new Set(['Object', 'Array', 'Map', 'Set', 'Buffer', 'Uint8Array', 'ArrayBuffer', 'Promise', 'WeakMap', 'WeakRef', 'Function', 'Date']);
  const parent = new Int32Array(count).fill(-1);
  const via = new Int32Array(count).fill(-1);
  parent[0] = 0;
  let queue = [0];
  while (queue.length) {
    const next: number[] = [];
    for (const i of queue) {
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += E) {
        const et = edgeTypes[s.edges[e + eType]];
        if (et === 'weak' || et === 'shortcut') continue;
        const to = s.edges[e + eTo] / N;
        if (parent[to] !== -1) continue;
        parent[to] = i;
        via[to] = e;
        next.push(to);
      }
    }
    queue = next;
  }
  const label = new Array<string | undefined>(count);
  label[0] = '(roots)';
  const holderOf = (i: number): string => {
    const path: number[] = [];
    let j = i;
    while (label[j] === undefined && parent[j] !== -1 && parent[j] !== j) {
      path.push(j);
      j = parent[j];
    }
    let current = label[j] ?? '(unreachable)';
    for (let k = path.length - 1; k >= 0; k--) {
      const node = path[k];
      const from = parent[node];
      if (type(from) === 'object' && /^[A-Z_]/.test(name(from)) && !generic.has(name(from))) {
        const e = via[node];
        const edge = edgeTypes[s.edges[e + eType]] === 'element' || edgeTypes[s.edges[e + eType]] === 'hidden' ? '[]' : s.strings[s.edges[e + eName]];
        current = `${name(from)}.${edge}`;
      }
      label[node] = current;
    }
    return label[i] ?? current;
  };
  const byHolder = new Map<string, Group>();
  for (let i = 0; i < count; i++) {
    if (type(i) === 'native' || parent[i] === -1) continue;
    const key = holderOf(i);
    const g = byHolder.get(key) ?? { count: 0, bytes: 0 };
    g.count++;
    g.bytes += size(i);
    byHolder.set(key, g);
  }
  return { groups, big, byHolder };
}

const [startFile, endFile, rowsArg] = process.argv.slice(2);
if (!startFile || !endFile) {
  console.error('usage: node heap-diff.js start.heapsnapshot end.heapsnapshot [rows]');
  process.exit(2);
}
const rows = Number(rowsArg ?? 30);
const a = load(startFile);
const b = load(endFile);
const mb = (n: number) => Number((n / 1024 ** 2).toFixed(2));
const keys = new Set([...a.groups.keys(), ...b.groups.keys()]);
const diff = [...keys].map((key) => {
  const x = a.groups.get(key) ?? { count: 0, bytes: 0 };
  const y = b.groups.get(key) ?? { count: 0, bytes: 0 };
  return { kind: key, 'count start': x.count, 'count end': y.count, 'MB start': mb(x.bytes), 'MB end': mb(y.bytes), 'MB grown': mb(y.bytes - x.bytes) };
});
diff.sort((x, y) => y['MB grown'] - x['MB grown']);
const total = (g: Map<string, Group>) => [...g.values()].reduce((sum, v) => sum + v.bytes, 0);
console.log(`heap in the snapshots: ${mb(total(a.groups))} MB → ${mb(total(b.groups))} MB`);
console.table(diff.slice(0, rows));
const holders = new Set([...a.byHolder.keys(), ...b.byHolder.keys()]);
const byHolder = [...holders].map((key) => {
  const x = a.byHolder.get(key) ?? { count: 0, bytes: 0 };
  const y = b.byHolder.get(key) ?? { count: 0, bytes: 0 };
  return { 'held by': key.slice(0, 70), 'objects start': x.count, 'objects end': y.count, 'MB start': mb(x.bytes), 'MB end': mb(y.bytes), 'MB grown': mb(y.bytes - x.bytes) };
});
byHolder.sort((x, y) => y['MB grown'] - x['MB grown']);
console.log('By holder (the nearest instance of a named class on a shortest path from the roots; native memory aside):');
console.table(byHolder.slice(0, rows));
console.log('Largest Maps and Sets at the end (own size and hash table):');
console.table(b.big.sort((x, y) => y.bytes - x.bytes).slice(0, rows).map((m) => ({ kind: m.key, held: m.holder, MB: mb(m.bytes) })));
