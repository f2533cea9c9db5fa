# Research tooling of branch h-gender4 (2026-12-08), removed again in the next commit: see docs/experiments/face-analyzer.md#face-embeddings.
# Reads /tmp/gender4/combine.json (face-attributes-combine.ts's cache) and /tmp/gender4/embed.json (face-attributes-embed-cache.ts).
import json, numpy as np, sys
from scipy.optimize import minimize
C = json.load(open('/tmp/gender4/combine.json'))
E = json.load(open('/tmp/gender4/embed.json'))
keys = [k for k in C if k in E]
def lg(p): p=np.clip(p,1e-6,1-1e-6); return np.log(p/(1-p))
def flip(c,k,f='male'): r=c['raw'][k]; return (r['plain'][f]+r['mirror'][f])/2
# shipped gender (the current PIPELINE logistic)
def shipped_male(c):
    a=lg(flip(c,'faceapi-age-gender@1.2e')); b=lg(flip(c,'ssrnet-gender@1.4'))
    z=-0.853430+1.18251*a-0.000294309*b
    if c['shipped']['years']<13: z+=0.00688413+0.102349*a+0.0720136*b
    return 1/(1+np.exp(-z))
ag=[k for k in keys if C[k]['set']=='age_gender']
fit=[k for k in ag if C[k]['half']=='fit']
chk=[k for k in ag if C[k]['half']=='check' and C[k]['source']=='shared']
print('fit',len(fit),'check',len(chk))
def emb(k,name,view='avg'):
    e=E[k][name]
    if view=='plain' or 'mirror' not in e: return np.array(e['plain'])
    return (np.array(e['plain'])+np.array(e['mirror']))/2
y=np.array([1 if C[k]['gender']==0 else 0 for k in fit])
age=np.array([C[k].get('age',30) if C[k].get('age') is not None else 30 for k in fit])
child=np.array([1.0 if C[k]['shipped']['years']<13 else 0.0 for k in fit])
fa=np.array([lg(flip(C[k],'faceapi-age-gender@1.2e')) for k in fit])
ssr=np.array([lg(flip(C[k],'ssrnet-gender@1.4')) for k in fit])
FRD=np.array([emb(k,'faceres-deep@1.6') for k in fit])
FA=np.array([emb(k,'faceapi-age-gender@1.2e') for k in fit])
FAp=np.array([emb(k,'faceapi-age-gender@1.2e','plain') for k in fit])
def fitlog(X,y,lam,pen=None):
    n,d=X.shape; X1=np.hstack([np.ones((n,1)),X])
    pen=np.ones(d+1) if pen is None else pen; pen=pen.copy(); pen[0]=0
    def f(w):
        z=X1@w; p=1/(1+np.exp(-z))
        l=np.sum(np.logaddexp(0,z)-y*z)+0.5*lam*n*np.sum(pen*w*w)
        g=X1.T@(p-y)+lam*n*pen*w
        return l,g
    r=minimize(f,np.zeros(d+1),jac=True,method='L-BFGS-B',options={'maxiter':2000})
    return r.x
def pred(w,X): return 1/(1+np.exp(-(w[0]+X@w[1:])))
rng=np.random.RandomState(34)
def folds(seed):
    r=np.random.RandomState(seed); o=r.permutation(len(fit)); f=np.zeros(len(fit),int); f[o]=np.arange(len(fit))%10; return f
def cv(make, lam, seed=34, std=True):
    F=folds(seed); p=np.zeros(len(fit))
    for f in range(10):
        tr=F!=f; te=F==f
        Xtr,Xte=make(tr),make(te)
        if std:
            mu=Xtr.mean(0); sd=Xtr.std(0)+1e-6; Xtr=(Xtr-mu)/sd; Xte=(Xte-mu)/sd
        w=fitlog(Xtr,y[tr],lam); p[te]=pred(w,Xte)
    return p
def report(name,p):
    ok=(p>=0.5)==(y==1)
    b=[(0,12),(13,59),(60,200)]
    bs=' '.join(f'{ok[(age>=lo)&(age<=hi)].sum()}/{((age>=lo)&(age<=hi)).sum()}' for lo,hi in b)
    nll=-np.mean(np.log(np.clip(np.where(y==1,p,1-p),1e-6,1)))
    sh=np.array([shipped_male(C[k]) for k in fit]); oks=(sh>=0.5)==(y==1)
    print(f'{ok.sum()}/{len(fit)} nll {nll:.3f} [{bs}] vs shipped +{(ok&~oks).sum()} -{(oks&~ok).sum()}  {name}', flush=True)
    return ok.sum()
sh=np.array([shipped_male(C[k]) for k in fit]); report('shipped weights (in-sample)', sh)
base=lambda m: np.column_stack([fa[m],ssr[m],child[m],fa[m]*child[m],ssr[m]*child[m]])
report('shipped form, CV (lam 1e-2, unstd)', cv(base,1e-2,std=False))
sets={'FRD':lambda m:FRD[m],'FA':lambda m:FA[m],'FRD+FA':lambda m:np.hstack([FRD[m],FA[m]])}
for nm,mk in sets.items():
    for lam in [1e-2,1e-1,3e-1,1]:
        report(f'{nm} lam {lam}', cv(mk,lam))
