# flag.py FILE: the variant V's rows exchanging once (layernorm's cluster rows held in registers).
import re, sys
p = sys.argv[1]; s = open(p).read()
def table(name):
    a = s.index(f'inline constexpr auto {name} = ') if f'inline constexpr auto {name} = ' in s else s.index(f'inline constexpr register_shape {name}[] = ')
    b = s.index('\n};', a) if f'register_shape {name}[]' in s[a:a+200] else s.index('\n    });', a)
    return a, b
def flag(name, rows):
    global s
    a, b = table(name); block = s[a:b]; done = set()
    out = ''; i = 0
    for m in re.finditer(r'\{(\d+), \d+, \d+, (true|false), (\d+),', block):
        cols = int(m.group(1))
        if cols in rows and int(m.group(3)) > 1 and cols not in done:
            # find the matching closing brace
            k = m.start(); depth = 0
            while True:
                depth += {'{':1,'}':-1}.get(block[k],0); k += 1
                if depth == 0: break
            if 'held' in block[m.start():k]:
                continue
            out += block[i:m.start()] + 'exchanging_once(' + block[m.start():k] + ')'; i = k; done.add(cols)
    out += block[i:]
    assert done == rows, (name, rows - done)
    s = s[:a] + out + s[b:]
flag('layernorm_16bit', {24576, 28672, 49152})
flag('layernorm_16bit_clusters', {65536, 131072, 262144})
flag('layernorm_chain_16bit', {131072})
flag('layernorm_tee_chain_16bit', {32768, 65536, 131072})
flag('layernorm_32bit', {28672, 32768, 40960, 57344, 65536, 81920, 114688, 163840})
flag('layernorm_32bit_h100', {131072, 262144})
open(p, 'w').write(s)
