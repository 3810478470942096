#!/usr/bin/env bash
# Writes the hostile XMLTV inputs into a folder, without ever holding or
# writing anything large uncompressed:
#
#     bash generate.sh OUTDIR [GZIP_BOMB_BYTES]
#
#   laughs.xml                        billion laughs: 10 nested levels of 10 references,
#                                     about 1 kB that expands to 3,000,000,000 bytes of "lol"
#                                     (a copy is kept next to this script)
#   attribute-amplification.xml       about 155 kB of references to a 10 kB internal
#                                     entity, all INSIDE ATTRIBUTE VALUES (icon src, and one
#                                     programme's channel): 29,201 references, 299,018,240
#                                     bytes once expanded
#   attribute-amplification-654k.xml  the same at about 654 kB: 130,401 references,
#                                     1,335,306,240 bytes expanded
#   gzip-bomb.xml.gz                  a valid gzip of an XMLTV document whose body is
#                                     GZIP_BOMB_BYTES (default 3,000,000,000) of white
#                                     space and comments; about 2.9 MB compressed.  Streamed
#                                     through `gzip -9` (gzip -1 would make it about 13 MB:
#                                     its fast mode matches long runs less well); the
#                                     uncompressed data never touches the disk
#   deep-nesting.xml                  100,000 nested unknown elements inside a programme
#
# Environment: DEEP_NESTING_DEPTH (default 100000).  Needs bash, python3 and gzip.
set -euo pipefail

out=${1:?usage: generate.sh OUTDIR [GZIP_BOMB_BYTES]}
bomb_bytes=${2:-3000000000}
depth=${DEEP_NESTING_DEPTH:-100000}
mkdir -p "$out"

python3 - "$out" "$depth" <<'PY'
import os, sys

out, depth = sys.argv[1], int(sys.argv[2])
HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n'
TV = '<tv generator-info-name="tvguide hostile fixtures">\n'

def write(name, text):
    with open(os.path.join(out, name), 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)

# Billion laughs: lol0 is 3 bytes, each level multiplies by 10.
decls = ['<!ENTITY lol0 "lol">']
for i in range(1, 10):
    decls.append('<!ENTITY lol%d "%s">' % (i, ('&lol%d;' % (i - 1)) * 10))
write('laughs.xml',
      HEAD +
      '<!DOCTYPE tv SYSTEM "xmltv.dtd" [\n  ' + '\n  '.join(decls) + '\n]>\n' +
      TV +
      '  <channel id="laughs.hostile.test">\n'
      '    <display-name>Laughs</display-name>\n'
      '  </channel>\n'
      '  <programme start="20240115100000 +0000" channel="laughs.hostile.test">\n'
      '    <title>&lol9;</title>\n'
      '  </programme>\n'
      '</tv>\n')

# Attribute-value amplification.  ENTITY_BYTES of text behind one name,
# referenced REFS_PER_ICON times in each icon's src (about 4 MB per
# attribute once expanded, under libxml2's 10 MB cap on one attribute
# value), as many icons as it takes to reach the target file size.
ENTITY_BYTES = 10240
REFS_PER_ICON = 400
def amplification(name, target):
    entity = ('0123456789abcdef' * (ENTITY_BYTES // 16 + 1))[:ENTITY_BYTES]
    head = (HEAD +
            '<!DOCTYPE tv SYSTEM "xmltv.dtd" [\n'
            '  <!ENTITY big "%s">\n'
            ']>\n' % entity +
            TV +
            '  <channel id="amplification.hostile.test">\n'
            '    <display-name>Amplification</display-name>\n'
            '  </channel>\n'
            '  <programme start="20240115090000 +0000" channel="&big;">\n'
            '    <title>Channel attribute made of one reference</title>\n'
            '  </programme>\n'
            '  <programme start="20240115100000 +0000" channel="amplification.hostile.test">\n'
            '    <title>Icons whose src attributes are references</title>\n')
    tail = '  </programme>\n</tv>\n'
    icon = '    <icon src="' + '&big;' * REFS_PER_ICON + '"/>\n'
    icons = max(1, round((target - len(head) - len(tail)) / len(icon)))
    write(name, head + icon * icons + tail)

amplification('attribute-amplification.xml', 155 * 1024)
amplification('attribute-amplification-654k.xml', 654 * 1024)

# Deep nesting of elements the DTD does not know, inside a programme.
write('deep-nesting.xml',
      HEAD + '<!DOCTYPE tv SYSTEM "xmltv.dtd">\n' + TV +
      '  <channel id="deep.hostile.test">\n'
      '    <display-name>Deep</display-name>\n'
      '  </channel>\n'
      '  <programme start="20240115100000 +0000" channel="deep.hostile.test">\n'
      '    <title>Deep</title>\n' +
      '<nest>' * depth + 'bottom' + '</nest>' * depth + '\n'
      '  </programme>\n'
      '</tv>\n')
PY

# The gzip bomb: python writes the document to a pipe, gzip -9 compresses
# it on the fly.  Blank runs of 1 MiB are separated by comments, so no
# single text node is larger than 1 MiB.
python3 - "$bomb_bytes" <<'PY' | gzip -9 -c -n >"$out/gzip-bomb.xml.gz"
import sys
target = int(sys.argv[1])
out = sys.stdout.buffer
head = (b'<?xml version="1.0" encoding="UTF-8"?>\n'
        b'<!DOCTYPE tv SYSTEM "xmltv.dtd">\n'
        b'<tv generator-info-name="tvguide hostile fixtures">\n'
        b'  <channel id="bomb.hostile.test">\n'
        b'    <display-name>Bomb</display-name>\n'
        b'  </channel>\n')
tail = (b'  <programme start="20240115100000 +0000" channel="bomb.hostile.test">\n'
        b'    <title>After the padding</title>\n'
        b'  </programme>\n'
        b'</tv>\n')
out.write(head)
left = max(0, target - len(head) - len(tail))
comment = b'<!-- padding -->\n'
block = b' ' * (1024 * 1024 - len(comment) - 1) + b'\n' + comment
while left >= len(block):
    out.write(block)
    left -= len(block)
out.write(b' ' * left)
out.write(tail)
PY

ls -l "$out"
