import csv,sys,glob,re
rows={}
for f in sorted(glob.glob('call1/quick-*.csv')):
    m=re.search(r'quick-(\w+)-(\d+).csv',f); op,c=m.group(1),int(m.group(2))
    lines=[l for l in open(f) if l.startswith('"')]
    data={}
    for r in csv.reader(lines):
        if r[0]=='ID': continue
        data.setdefault(int(r[0]),{'name':r[4]})[r[12]]=r[14]
    for i,d in sorted(data.items()):
        k='row' if 'register_kernel' in d['name'] else 'csum'
        v=lambda m: float(d.get(m,'0').replace(',',''))
        print(f"{op[:6]} {c:6d} {i} {k:4s} t={v('gpu__time_duration.sum')/1e3:7.1f}us rd={v('dram__bytes_read.sum')/1e6:7.1f}MB wr={v('dram__bytes_write.sum')/1e6:6.1f}MB inst/el={v('smsp__inst_executed.sum')*32/2**27:5.1f} issue={v('smsp__issue_active.avg.pct_of_peak_sustained_active'):5.1f} warps={v('sm__warps_active.avg.pct_of_peak_sustained_active'):5.1f} dram%={v('dram__throughput.avg.pct_of_peak_sustained_elapsed'):5.1f} lld={v('l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum')/1e6:6.1f}MB lst={v('l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum')/1e6:5.1f} regs={v('launch__registers_per_thread'):.0f} grid={v('launch__grid_size'):.0f}x{v('launch__block_size'):.0f} clk={v('sm__cycles_elapsed.avg.per_second')/1e9:.2f}")
