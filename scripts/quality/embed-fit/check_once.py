# Research tooling of branch h-gender4 (2026-12-08), removed again in the next commit: see docs/experiments/face-analyzer.md#face-embeddings.
# Reads /tmp/gender4/combine.json (face-attributes-combine.ts's cache) and /tmp/gender4/embed.json (face-attributes-embed-cache.ts).
exec(open('explore2.py').read().split("sets={")[0].replace("report('shipped form, CV', cv(base,1e-2,std=False))",""))
# decision made on fit CV before this: keep shipped. Informational: the best stacked candidate, refit on the whole fit pool, on the check half once.
ck=chk
yc=np.array([1 if C[k]['gender']==0 else 0 for k in ck]); agec=np.array([C[k]['age'] for k in ck])
fac=np.array([lg(flip(C[k],'faceapi-age-gender@1.2e')) for k in ck]); ssrc=np.array([lg(flip(C[k],'ssrnet-gender@1.4')) for k in ck])
chc=np.array([1.0 if C[k]['shipped']['years']<13 else 0.0 for k in ck])
basec=np.column_stack([fac,ssrc,chc,fac*chc,ssrc*chc])
allm=np.ones(len(fit),bool)
wb=fitlog(base(allm),y,1e-2)
X=np.hstack([FRD,FA]); mu=X.mean(0); sd=X.std(0)+1e-6
w=fito((X-mu)/sd,wb[0]+base(allm)@wb[1:],y,0.3)
Xc=np.hstack([np.array([emb(k,'faceres-deep@1.6') for k in ck]),np.array([emb(k,'faceapi-age-gender@1.2e') for k in ck])])
pc=1/(1+np.exp(-(wb[0]+basec@wb[1:]+((Xc-mu)/sd)@w)))
shc=np.array([shipped_male(C[k]) for k in ck])
for nm,p in [('shipped',shc),('base + FRD+FA offset lam 0.3',pc)]:
    ok=(p>=0.5)==(yc==1); print(nm, f'{ok.sum()}/30', 'misses', ' '.join(('M' if yc[i] else 'F')+str(agec[i]) for i in range(30) if not ok[i]))
