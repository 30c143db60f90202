import re,sys,glob
def regs(tag):
  t=open(f'/tmp/pv/{tag}/ptxas.txt').read()
  out={}
  for m in re.finditer(r"Compiling entry function '(\w+)' for 'sm_90'\n(?:.*\n)*?ptxas info\s+: Used (\d+) registers.*", t):
    out[m.group(1)]=int(m.group(2))
  sp={}
  for m in re.finditer(r"Function properties for (\w+)\n\s*(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads",t):
    sp[m.group(1)]=(int(m.group(3)),int(m.group(4)))
  return out,sp
def ptx(tag):
  f=glob.glob(f'/tmp/pv/{tag}/*.ptx')[0]; t=open(f).read()
  bodies={}
  for m in re.finditer(r"\.entry (\w+)\((.*?)\n\}\n", t, re.S):
    body=re.sub(r'_Z\w+','',m.group(2)); body=re.sub(r'\$L__\w+','',body)
    bodies[m.group(1)]=body
  return bodies
ro,so=regs('old'); rn,sn=regs('new'); po=ptx('old'); pn=ptx('new')
common=set(po)&set(pn)
same=sum(po[k]==pn[k] for k in common)
print('old kernels',len(po),'new',len(pn),'common',len(common),'identical ptx',same)
for k in common:
  if po[k]!=pn[k] or ro.get(k)!=rn.get(k) or so.get(k)!=sn.get(k): print('DIFF',k[:120],ro.get(k),rn.get(k),so.get(k),sn.get(k))
import subprocess
for k in sorted(set(pn)-set(po)):
  name=subprocess.run(['c++filt'],input=k,capture_output=True,text=True).stdout
  m=re.search(r'register_config<(\d+), (\d+), (\d+), (\w+), (\w+), (\d+), (\d+)',name)
  op='layernorm' if 'norm_backward<true' in name else 'rmsnorm'
  print('NEW',op,m.groups() if m else name[:200],rn.get(k),sn.get(k))
