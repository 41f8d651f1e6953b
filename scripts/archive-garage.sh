#!/usr/bin/env bash
# A 3-node Garage cluster on 127.0.0.1 for the archive tests (replication factor 3,
# consistent mode: reads and writes need 2 of 3 nodes). Stops only the processes it started,
# by the PIDs it recorded in DIR.
#
#   scripts/archive-garage.sh install           build Garage once into the cache if missing
#   scripts/archive-garage.sh up DIR            start nodes 1-3, form the cluster, make the
#                                               bucket and key; writes DIR/env
#   scripts/archive-garage.sh stop-node DIR N   SIGKILL node N (a crash), wait until it is gone
#   scripts/archive-garage.sh start-node DIR N  start node N again on its own data
#   scripts/archive-garage.sh down DIR          stop every node this DIR started
#
# Ports: node N listens on S3 $BASE+10N, RPC $BASE+10N+1, admin $BASE+10N+3. `up` takes the
# first of ARCHIVE_GARAGE_PORT_BASE (default 39100), +100, +200, ... (10 tries) whose nine
# ports are all free, so clusters of concurrent runs do not collide. Clients use node 1's S3
# port (written to DIR/env).
set -euo pipefail

GARAGE_VERSION=2.5.0
GARAGE_ROOT="${GARAGE_ROOT:-/root/.cache/bstore/garage-$GARAGE_VERSION}"
GARAGE="$GARAGE_ROOT/bin/garage"
BASE="${ARCHIVE_GARAGE_PORT_BASE:-39100}"
NODES="1 2 3"
BUCKET=bstore-archive
# A fixed test key (Garage's format: "GK" + 24 hex digits, and a 64-hex-digit secret).
KEY_ID=GK0123456789abcdef01234567
KEY_SECRET=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef

log() { printf '== archive-garage: %s\n' "$*" >&2; }
die() { printf 'archive-garage: %s\n' "$*" >&2; exit 1; }

install_garage() {
    if [ -x "$GARAGE" ]; then return; fi
    log "building garage $GARAGE_VERSION into $GARAGE_ROOT (once; about 20-30 minutes on 2 cores)"
    nice -n 10 cargo install garage --version "$GARAGE_VERSION" --locked --root "$GARAGE_ROOT" \
        --target-dir "${GARAGE_TARGET_DIR:-/root/.cache/bstore/target-garage}"
    [ -x "$GARAGE" ] || die "garage build did not produce $GARAGE"
}

port() { echo $((BASE + 10 * $1 + $2)); }

# True when nothing listens on 127.0.0.1:PORT.
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_base() {
    local first=$BASE
    for try in $(seq 0 9); do
        BASE=$((first + 100 * try))
        local busy=false
        for n in $NODES; do
            for k in 0 1 3; do port_free "$(port "$n" "$k")" || busy=true; done
        done
        $busy || return 0
    done
    die "no free port range from $first (10 tries of 100)"
}

config() { # DIR N
    local dir=$1 n=$2
    mkdir -p "$dir/node$n/meta" "$dir/node$n/data"
    cat > "$dir/node$n.toml" <<TOML
metadata_dir = "$dir/node$n/meta"
data_dir = "$dir/node$n/data"
db_engine = "lmdb"
replication_factor = 3
consistency_mode = "consistent"
rpc_bind_addr = "127.0.0.1:$(port "$n" 1)"
rpc_public_addr = "127.0.0.1:$(port "$n" 1)"
rpc_secret = "$(cat "$dir/rpc_secret")"

[s3_api]
api_bind_addr = "127.0.0.1:$(port "$n" 0)"
s3_region = "garage"
root_domain = ".s3.garage.localhost"

[admin]
api_bind_addr = "127.0.0.1:$(port "$n" 3)"
TOML
}

g() { # N ARGS... : the garage CLI against node N
    local n=$1; shift
    "$GARAGE" -c "$DIR/node$n.toml" "$@"
}

start_node() { # N
    local n=$1 pidfile="$DIR/node$1.pid"
    if [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null; then
        die "node $n already runs (pid $(cat "$pidfile"))"
    fi
    RUST_LOG="${GARAGE_LOG:-garage=warn}" "$GARAGE" -c "$DIR/node$n.toml" server \
        >>"$DIR/node$n.log" 2>&1 &
    echo $! > "$pidfile"
    for _ in $(seq 1 100); do
        if g "$n" status >/dev/null 2>&1; then return; fi
        kill -0 "$(cat "$pidfile")" 2>/dev/null || die "node $n exited; see $DIR/node$n.log"
        sleep 0.2
    done
    die "node $n did not answer within 20 s; see $DIR/node$n.log"
}

# Nodes that node N lists as healthy (connected).
healthy_seen_by() {
    g "$1" status 2>/dev/null \
        | awk '/HEALTHY NODES/ {h = 1; next} /====/ {h = 0} h && /127\.0\.0\.1:/ {c++} END {print c + 0}'
}

# Nodes of DIR whose recorded process is alive.
running() {
    local c=0
    for n in $NODES; do
        if [ -f "$DIR/node$n.pid" ] && kill -0 "$(cat "$DIR/node$n.pid")" 2>/dev/null; then
            c=$((c + 1))
        fi
    done
    echo "$c"
}

wait_healthy() { # N : until node N sees every running node of DIR as healthy
    local want; want=$(running)
    for _ in $(seq 1 300); do
        [ "$(healthy_seen_by "$1")" -ge "$want" ] && return 0
        sleep 0.2
    done
    g "$1" status >&2 || true
    die "node $1 does not see the $want running nodes as healthy within 60 s"
}

stop_node() { # N
    local n=$1 pidfile="$DIR/node$1.pid"
    [ -f "$pidfile" ] || return 0
    local pid; pid=$(cat "$pidfile")
    if kill -0 "$pid" 2>/dev/null; then
        kill -KILL "$pid"
        while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    fi
    rm -f "$pidfile"
}

up() {
    install_garage
    mkdir -p "$DIR"
    [ -f "$DIR/rpc_secret" ] || od -An -tx1 -N32 /dev/urandom | tr -d ' \n' > "$DIR/rpc_secret"
    pick_base
    for n in $NODES; do config "$DIR" "$n"; done
    for n in 1 2 3; do start_node "$n"; done
    # Every pair explicitly: gossip would get there, but only in its own time.
    for pair in "1 2" "1 3" "2 3"; do
        set -- $pair
        g "$1" node connect "$(g "$2" node id -q 2>/dev/null)" >/dev/null
    done
    local ids=()
    for n in 1 2 3; do ids+=("$(g "$n" node id -q 2>/dev/null | cut -d@ -f1)"); done
    for id in "${ids[@]}"; do g 1 layout assign -z dc1 -c 1G "$id" >/dev/null; done
    g 1 layout apply --version 1 >/dev/null
    for n in $NODES; do wait_healthy "$n"; done
    g 1 bucket create "$BUCKET" >/dev/null
    g 1 key import --yes -n bstore-test "$KEY_ID" "$KEY_SECRET" >/dev/null
    g 1 bucket allow --read --write --owner "$BUCKET" --key bstore-test >/dev/null
    cat > "$DIR/env" <<ENV
export AWS_ENDPOINT_URL=http://127.0.0.1:$(port 1 0)
export AWS_REGION=garage
export AWS_ACCESS_KEY_ID=$KEY_ID
export AWS_SECRET_ACCESS_KEY=$KEY_SECRET
export BSTORE_ARCHIVE_BUCKET=$BUCKET
ENV
    log "cluster up in $DIR (S3 on 127.0.0.1:$(port 1 0)); nodes: $(cat "$DIR"/node*.pid | tr '\n' ' ')"
}

down() {
    for n in 1 2 3; do stop_node "$n"; done
    log "cluster in $DIR stopped"
}

cmd=${1:-}
case "$cmd" in
    install) install_garage ;;
    up) DIR=$(realpath -m "${2:?DIR}"); up ;;
    down) DIR=$(realpath -m "${2:?DIR}"); down ;;
    stop-node) DIR=$(realpath -m "${2:?DIR}"); stop_node "${3:?N}" ;;
    start-node)
        DIR=$(realpath -m "${2:?DIR}"); start_node "${3:?N}"
        # Back in the cluster only once it sees every running node again.
        wait_healthy "${3:?N}" ;;
    *) die "usage: $0 install | up DIR | down DIR | stop-node DIR N | start-node DIR N" ;;
esac
