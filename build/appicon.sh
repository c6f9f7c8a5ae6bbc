#!/bin/sh
# Renders the app icon source: the character's head as frontend/src/
# character.ts draws it (iconSVG), 1024 px, to the PNG named by $1.
# Needs the frontend's node_modules (TypeScript) and rsvg-convert.
set -eu
out=$(realpath -m "$1")
mkdir -p "$(dirname "$out")"
cd "$(dirname "$0")/../frontend"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npx tsc src/character.ts --outDir "$tmp" --module commonjs --target es2022 \
	--lib es2022,dom,dom.iterable --skipLibCheck
echo '{"type":"commonjs"}' > "$tmp/package.json"
node -e "process.stdout.write(require('$tmp/character.js').iconSVG())" > "$tmp/appicon.svg"
rsvg-convert -w 1024 -h 1024 "$tmp/appicon.svg" -o "$out"
