#!/usr/bin/env bash
# Installs the real Solana clients the bstore-rpc integration tests drive (idempotent):
#   - Python: `solana` (AsyncClient) and `solders` from PyPI, for python3;
#   - Node: @solana/web3.js 1.x (and bs58) into rpc/tests/clients/node_modules, exactly as
#     pinned by the committed package-lock.json.
# Without them the client tests fail with a hint (there is no switch to skip them).
set -euo pipefail
cd "$(dirname "$0")/.."

# The versions the tests were written against (solana 0.41 has only the async client).
PY_PACKAGES=(solana==0.41.0 solders==0.29.0)
if python3 -c 'import solana.rpc.async_api, solders' 2>/dev/null; then
    echo "rpc-client-deps: python solana + solders present"
else
    echo "rpc-client-deps: installing python ${PY_PACKAGES[*]}"
    python3 -m pip install --quiet "${PY_PACKAGES[@]}"
fi

CLIENTS=rpc/tests/clients
if [ -d "$CLIENTS/node_modules/@solana/web3.js" ] && [ -d "$CLIENTS/node_modules/bs58" ]; then
    echo "rpc-client-deps: node @solana/web3.js present"
else
    echo "rpc-client-deps: npm ci in $CLIENTS"
    (cd "$CLIENTS" && npm ci --no-audit --no-fund)
fi
