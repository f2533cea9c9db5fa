# Research tooling of branch h-gender4 (2026-12-08), removed again in the next commit: see docs/experiments/face-analyzer.md#face-embeddings.
# Reads /tmp/gender4/combine.json (face-attributes-combine.ts's cache) and /tmp/gender4/embed.json (face-attributes-embed-cache.ts).
exec(open('explore.py').read().split("sh=np.array([shipped_male(C[k]) for k in fit]); report(")[0])
sh=np.array([shipped_male(C[k]) for k in fit]); report('shipped weights (in-sample)', sh)
base=lambda m: np.column_stack([fa[m],ssr[m],child[m],fa[m]*child[m],ssr[m]*child[m]])
report('shipped form, CV', cv(base,1e-2,std=False))
def fito(X,o,y,lam):
    n,d=X.shape
    def f(w):
        z=o+X@w; p=1/(1+np.exp(-z))
        return np.sum(np.logaddexp(0,z)-y*z)+0.5*lam*n*np.sum(w*w), X.T@(p-y)+lam*n*w
    return minimize(f,np.zeros(d),jac=True,method='L-BFGS-B',options={'maxiter':2000}).x
def cv2(make,lam,seed=34,childonly=False):
    F=folds(seed); p=np.zeros(len(fit))
    for f in range(10):
        tr=F!=f; te=F==f
        wb=fitlog(base(tr),y[tr],1e-2)
        otr=wb[0]+base(tr)@wb[1:]; ote=wb[0]+base(te)@wb[1:]
        Xtr,Xte=make(tr),make(te); mu=Xtr.mean(0); sd=Xtr.std(0)+1e-6; Xtr=(Xtr-mu)/sd; Xte=(Xte-mu)/sd
        if childonly: Xtr=Xtr*child[tr][:,None]; Xte=Xte*child[te][:,None]
        w=fito(Xtr,otr,y[tr],lam); p[te]=1/(1+np.exp(-(ote+Xte@w)))
    return p
sets={'FRD':lambda m:FRD[m],'FA':lambda m:FA[m],'FRD+FA':lambda m:np.hstack([FRD[m],FA[m]])}
for nm,mk in sets.items():
    for lam in [0.03,0.1,0.3,1,3]:
        report(f'base + {nm} offset lam {lam}', cv2(mk,lam))
for seed in [1,2,3]:
    report(f'seed {seed} shipped form', cv(base,1e-2,seed=seed,std=False)); report(f'seed {seed} base+FRD+FA lam .3', cv2(sets['FRD+FA'],0.3,seed=seed))
