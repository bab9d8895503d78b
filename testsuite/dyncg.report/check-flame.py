#!/usr/bin/env python3
# check-flame.py SVG FOLDED UNIT - is the flame graph SVG the folded
# view drawn?  The folded stacks (the reference, from the same trace)
# give each stack prefix a weight: the sum of its lines.  The SVG must
# parse as XML and have exactly one frame per prefix of weight > 0,
# with that weight, a <title> "NAME (WEIGHT UNIT, SHARE%)", a width in
# proportion, and one fill per name.  Prints what is wrong, exits 1.
import re
import sys
import xml.etree.ElementTree as ET

NS = '{http://www.w3.org/2000/svg}'


def main():
    svg, folded, unit = sys.argv[1:4]
    want = {}
    for line in open(folded):
        stack, v = line.rstrip('\n').rsplit(' ', 1)
        frames = stack.split(';')
        for i in range(1, len(frames) + 1):
            key = tuple(frames[:i])
            want[key] = want.get(key, 0) + int(v)
    total = sum(v for k, v in want.items() if len(k) == 1)

    root = ET.parse(svg).getroot()      # raises if not XML
    width = float(root.get('width'))
    frames, fills, errors = {}, {}, []
    for g in root.iter(NS + 'g'):
        if g.get('class') != 'f':
            continue
        title = g.find(NS + 'title').text
        m = re.fullmatch(r'(.*) \((\d+) (\S+), ([0-9.]+)%\)', title)
        if not m:
            errors.append('title not "name (N unit, P%%)": %r' % title)
            continue
        name, v, u, share = m.group(1), int(m.group(2)), m.group(3), float(m.group(4))
        if u != unit:
            errors.append('%s: unit %s, want %s' % (name, u, unit))
        if abs(share - 100.0 * v / total) > 0.006:
            errors.append('%s: share %s%%, want %.2f%%' % (name, share, 100.0 * v / total))
        if int(g.get('data-v')) != v:
            errors.append('%s: data-v %s, title %d' % (name, g.get('data-v'), v))
        rect = g.find(NS + 'rect')
        w = float(rect.get('width'))
        if abs(w / (width - 20) - v / total) > 0.001:
            errors.append('%s: width %.2f not in proportion to %d of %d' % (name, w, v, total))
        fill = rect.get('fill')
        if fills.setdefault(name, fill) != fill:
            errors.append('%s: two colours' % name)
        frames[g.get('id')] = (g.get('data-p'), name.replace(';', ':'), v)

    got = {}
    for fid, (parent, name, v) in frames.items():
        path = [name]
        while parent != 'f0':
            if parent not in frames:
                errors.append('%s: parent %s missing' % (name, parent))
                break
            parent, pname, _ = frames[parent]
            path.insert(0, pname)
        got[tuple(path)] = got.get(tuple(path), 0) + v
    for k in sorted(set(want) | set(got)):
        if want.get(k) != got.get(k):
            errors.append('%s: folded %s, svg %s' % (';'.join(k), want.get(k), got.get(k)))
    if not want:
        errors.append('no stacks in the folded view')
    for e in errors:
        print(e)
    if not errors:
        print('%d frames match the folded view, total %d %s' % (len(got), total, unit))
    print('fills %s' % ' '.join('%s=%s' % (n, f) for n, f in sorted(fills.items())))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
