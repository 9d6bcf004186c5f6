#!/usr/bin/env bash
# The project's own copy of ../shared/tools/ceph-s3 (the measured reference), on its own folder and ports
# (/tmp/hunktube-s3, S3 on 127.0.0.1:7490) so that it never meets a cluster started from the reference.
# start-ceph-s3.sh — run a throw-away single-node Ceph cluster (1 mon, 1 memstore OSD, radosgw/beast)
# on loopback and print a working S3 endpoint and keys.
#
#   eval "$(scripts/s3/start-ceph-s3.sh)"     # sets S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY, S3_REGION
#
# stdout: only shell-sourceable KEY=value lines (also written to $S3LAB_DIR/s3.env)
# stderr: progress and, on failure, a clear message plus the tail of the relevant log.
# Exit status: 0 when the endpoint answers an authenticated S3 request, non-zero otherwise.
#
# Idempotent: if the cluster from a previous call is still running and healthy it is reused
# (unless S3LAB_FRESH=1); otherwise any leftover of ours is stopped, the data dir is wiped and a new
# cluster is built. No systemd: each daemon runs in the foreground (-f) in its own process group
# (setsid); PIDs go to $S3LAB_DIR/run/*.pid and stop-ceph-s3.sh kills exactly those groups.
#
# Environment (all optional):
#   S3LAB_DIR            data/config/logs dir          (default ${TMPDIR:-/tmp}/hunktube-s3)
#   S3LAB_RGW_PORT       S3 port on 127.0.0.1           (default 7490)
#   S3LAB_MON_PORT       mon msgr2 port (v1 port = +3489) (default 3390 → v1 6879)
#   S3LAB_ACCESS_KEY / S3LAB_SECRET_KEY  keys of the RGW user (defaults below; fixed so tests can hard-code)
#   S3LAB_MEMSTORE_BYTES memstore capacity              (default 2 GiB; data lives in the OSD's RAM)
#   S3LAB_TIMEOUT        overall start deadline, s      (default 120)
#   S3LAB_FRESH=1        always rebuild from nothing
#   S3LAB_AUTO_INSTALL=1 apt-get install missing Ceph packages instead of failing
set -uo pipefail

DIR=${S3LAB_DIR:-${TMPDIR:-/tmp}/hunktube-s3}
RGW_PORT=${S3LAB_RGW_PORT:-7490}
MON_PORT=${S3LAB_MON_PORT:-3390}
MON_PORT_V1=$((MON_PORT + 3489))
ACCESS_KEY=${S3LAB_ACCESS_KEY:-CEPHS3ACCESSKEY000001}
SECRET_KEY=${S3LAB_SECRET_KEY:-cephs3secretkey0000000000000000000000000001}
MEM_BYTES=${S3LAB_MEMSTORE_BYTES:-2147483648}
DEADLINE=$(( $(date +%s) + ${S3LAB_TIMEOUT:-120} ))
CONF=$DIR/ceph.conf
ENDPOINT=http://127.0.0.1:$RGW_PORT
T0=$(date +%s.%N)

log() { printf '[start-ceph-s3 +%5.1fs] %s\n' "$(awk -v a="$(date +%s.%N)" -v b="$T0" 'BEGIN{print a-b}')" "$*" >&2; }
die() {
  echo "start-ceph-s3: ERROR: $1" >&2
  if [ -n "${2:-}" ] && [ -f "$2" ]; then echo "---- last lines of $2 ----" >&2; tail -n 25 "$2" >&2; fi
  if ls "$DIR"/run/*.pid >/dev/null 2>&1; then
    echo "start-ceph-s3: the daemons that did start are left running for inspection (logs in $DIR/log); run stop-ceph-s3.sh to clean up" >&2
  fi
  exit 1
}
left() { echo $(( DEADLINE - $(date +%s) )); }
cephc() { timeout 15 ceph -c "$CONF" --connect-timeout 10 "$@"; }
# wait_for DESCRIPTION LOGFILE PIDFILE COMMAND... : poll (0.25 s) until COMMAND succeeds, the daemon dies, or the deadline passes
wait_for() {
  local what=$1 logf=$2 pidf=$3; shift 3
  while :; do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if [ -n "$pidf" ] && ! kill -0 "$(cat "$pidf" 2>/dev/null)" 2>/dev/null; then die "$what: the daemon exited" "$logf"; fi
    [ "$(left)" -le 0 ] && die "timed out waiting for $what" "$logf"
    sleep 0.25
  done
}
print_env() {
  local out="S3_ENDPOINT=$ENDPOINT
S3_REGION=us-east-1
S3_ACCESS_KEY=$ACCESS_KEY
S3_SECRET_KEY=$SECRET_KEY
S3_FORCE_PATH_STYLE=true
AWS_ACCESS_KEY_ID=$ACCESS_KEY
AWS_SECRET_ACCESS_KEY=$SECRET_KEY"
  echo "$out" > "$DIR/s3.env"
  echo "$out"
}
# an authenticated ListBuckets (SigV4, curl --aws-sigv4) must answer 200 with our user as owner.
# curl 7.88 does not add x-amz-content-sha256 itself (RGW then answers SignatureDoesNotMatch), so pass it.
EMPTY_SHA256=e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
s3_auth_ok() {
  curl -sf -m 5 --aws-sigv4 "aws:amz:us-east-1:s3" --user "$ACCESS_KEY:$SECRET_KEY" \
    -H "x-amz-content-sha256: $EMPTY_SHA256" "$ENDPOINT/" 2>/dev/null \
    | grep -q "<ID>cephs3</ID>"
}
pid_alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# ---- 0. prerequisites ------------------------------------------------------------------------------
PKGS="ceph-mon ceph-osd radosgw ceph-common"
missing=""
for b in ceph-mon ceph-osd radosgw radosgw-admin ceph monmaptool ceph-authtool; do
  command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
done
for b in curl uuidgen setsid timeout awk; do
  command -v "$b" >/dev/null 2>&1 || die "required tool '$b' not found"
done
if [ -n "$missing" ]; then
  if [ "${S3LAB_AUTO_INSTALL:-0}" = 1 ]; then
    log "installing $PKGS (missing:$missing)"
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $PKGS >&2 \
      || die "apt-get install $PKGS failed"
  else
    die "missing Ceph binaries:$missing — install them with: apt-get install -y --no-install-recommends $PKGS (or set S3LAB_AUTO_INSTALL=1)"
  fi
fi

# ---- 1. reuse a healthy running cluster ----------------------------------------------------------------
if [ "${S3LAB_FRESH:-0}" != 1 ] && pid_alive "$DIR/run/mon.pid" && pid_alive "$DIR/run/osd.pid" \
   && pid_alive "$DIR/run/rgw.pid" && s3_auth_ok; then
  log "cluster already running and healthy; reusing it"
  print_env
  exit 0
fi

# ---- 2. clean up leftovers of ours, check ports -----------------------------------------------------------
if [ -d "$DIR/run" ]; then
  log "stopping leftovers of a previous run"
  S3LAB_DIR=$DIR "$(dirname "$0")/stop-ceph-s3.sh" >&2 || die "could not stop the previous cluster"
fi
for p in "$MON_PORT" "$MON_PORT_V1" "$RGW_PORT"; do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
    die "TCP port $p on 127.0.0.1 is already in use by another program: $(ss -Hltnp "sport = :$p" 2>/dev/null | head -1)"
  fi
done
case "$DIR" in /tmp/*|/var/tmp/*|/run/*) ;; *) [ -n "${S3LAB_ALLOW_ANY_DIR:-}" ] || die "refusing to wipe $DIR (not under /tmp); set S3LAB_ALLOW_ANY_DIR=1";; esac
rm -rf "$DIR"
mkdir -p "$DIR"/{mon.a,osd.0,rgw.a,log,run} || die "cannot create $DIR"

# ---- 3. config -------------------------------------------------------------------------------------------
FSID=$(uuidgen)
cat > "$CONF" <<EOF
# generated by start-ceph-s3.sh — single node, loopback only, no authentication between daemons
[global]
fsid = $FSID
mon_host = [v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$MON_PORT_V1]
mon_initial_members = a
public_addr = 127.0.0.1
cluster_addr = 127.0.0.1
ms_bind_ipv4 = true
ms_bind_ipv6 = false
auth_cluster_required = none
auth_service_required = none
auth_client_required = none
# radosgw defaults ms_mon_client_mode to "secure", which auth "none" cannot provide
ms_mon_client_mode = crc secure
run_dir = $DIR/run
admin_socket = $DIR/run/\$cluster-\$name.asok
pid_file = $DIR/run/\$cluster-\$name.daemonpid
log_file = $DIR/log/\$cluster-\$name.log
keyring = $DIR/keyring
mon_allow_pool_size_one = true
mon_warn_on_pool_no_redundancy = false
mon_warn_on_insecure_global_id_reclaim_allowed = false
osd_pool_default_size = 1
osd_pool_default_min_size = 1
osd_pool_default_pg_num = 8
osd_pool_default_pgp_num = 8
osd_pool_default_pg_autoscale_mode = off
osd_crush_chooseleaf_type = 0
mon_max_pg_per_osd = 500
# commit cluster-map changes (pool creation) quickly instead of batching for 1 s
paxos_propose_interval = 0.05
paxos_min_wait = 0.01

[mon]
mon_data = $DIR/mon.\$id
mon_data_avail_warn = 1
mon_data_avail_crit = 0

[osd]
osd_data = $DIR/osd.\$id
osd_objectstore = memstore
memstore_device_bytes = $MEM_BYTES

[client.rgw.a]
rgw_data = $DIR/rgw.\$id
rgw_frontends = beast endpoint=127.0.0.1:$RGW_PORT
rgw_thread_pool_size = 64
rgw_enable_apis = s3, admin
EOF

# ---- 4. monitor ------------------------------------------------------------------------------------------
log "creating monitor"
ceph-authtool --create-keyring "$DIR/keyring" --gen-key -n mon. --cap mon 'allow *' >/dev/null 2>&1 \
  || die "ceph-authtool failed"
monmaptool --create --addv a "[v2:127.0.0.1:$MON_PORT,v1:127.0.0.1:$MON_PORT_V1]" --fsid "$FSID" "$DIR/monmap" >/dev/null 2>&1 \
  || die "monmaptool failed"
ceph-mon -c "$CONF" -i a --mkfs --monmap "$DIR/monmap" --keyring "$DIR/keyring" > "$DIR/log/mon.mkfs.out" 2>&1 \
  || die "ceph-mon --mkfs failed" "$DIR/log/mon.mkfs.out"
setsid ceph-mon -c "$CONF" -i a -f > "$DIR/log/mon.out" 2>&1 < /dev/null &
echo $! > "$DIR/run/mon.pid"
wait_for "the monitor to form a quorum" "$DIR/log/ceph-mon.a.log" "$DIR/run/mon.pid" cephc mon stat
log "monitor up (pid $(cat "$DIR/run/mon.pid"))"

# ---- 5. OSD (memstore: objects live in the OSD's memory) ----------------------------------------------------
OSD_UUID=$(uuidgen)
OSD_ID=$(cephc osd new "$OSD_UUID" 2>"$DIR/log/osd.new.out") || die "ceph osd new failed" "$DIR/log/osd.new.out"
[ "$OSD_ID" = 0 ] || die "unexpected OSD id '$OSD_ID'"
ceph-osd -c "$CONF" -i 0 --mkfs --osd-uuid "$OSD_UUID" > "$DIR/log/osd.mkfs.out" 2>&1 \
  || die "ceph-osd --mkfs failed" "$DIR/log/osd.mkfs.out"
setsid ceph-osd -c "$CONF" -i 0 -f > "$DIR/log/osd.out" 2>&1 < /dev/null &
echo $! > "$DIR/run/osd.pid"
osd_up() { cephc osd dump -f json 2>/dev/null | grep -q '"up":1'; }
wait_for "osd.0 to come up" "$DIR/log/ceph-osd.0.log" "$DIR/run/osd.pid" osd_up
log "osd.0 up (pid $(cat "$DIR/run/osd.pid"))"

# ---- 6. radosgw -------------------------------------------------------------------------------------------
setsid radosgw -c "$CONF" -n client.rgw.a -f > "$DIR/log/rgw.out" 2>&1 < /dev/null &
echo $! > "$DIR/run/rgw.pid"
rgw_up() { [ "$(curl -s -m 2 -o /dev/null -w '%{http_code}' "$ENDPOINT/")" = 200 ]; }
wait_for "radosgw to answer on $ENDPOINT" "$DIR/log/ceph-client.rgw.a.log" "$DIR/run/rgw.pid" rgw_up
log "radosgw up on $ENDPOINT (pid $(cat "$DIR/run/rgw.pid"))"

# ---- 7. S3 user ---------------------------------------------------------------------------------------------
timeout 30 radosgw-admin -c "$CONF" -n client.admin user create --uid=cephs3 --display-name="cephs3 test user" \
  --access-key="$ACCESS_KEY" --secret-key="$SECRET_KEY" > "$DIR/user.json" 2> "$DIR/log/user-create.out" \
  || die "radosgw-admin user create failed" "$DIR/log/user-create.out"
wait_for "an authenticated S3 request to succeed" "$DIR/log/ceph-client.rgw.a.log" "$DIR/run/rgw.pid" s3_auth_ok
log "ready: $ENDPOINT (user cephs3)"
print_env
