# Research tooling of branch h-gender4 (2026-12-08), removed again in the next commit: see docs/experiments/face-analyzer.md#face-embeddings.
# Reads /tmp/gender4/combine.json (face-attributes-combine.ts's cache) and /tmp/gender4/embed.json (face-attributes-embed-cache.ts).
import json, numpy as np
from scipy.optimize import minimize
C = json.load(open('/tmp/gender4/combine.json'))
E = json.load(open('/tmp/gender4/embed.json'))
keys=[k for k in C if k in E and C[k]['set']=='emotion']
fit=[k for k in keys if C[k]['half']=='fit']
print('emotion fit',len(fit))
def emb(k,name):
    e=E[k][name]; return (np.array(e['plain'])+np.array(e['mirror']))/2 if 'mirror' in e else np.array(e['plain'])
y=np.array([C[k]['emotion'] for k in fit])
SH=np.array([C[k]['shipped']['emotion'] for k in fit])
def eflip(c,k): r=c['raw'][k]; return (np.array(r['plain']['emotion'])+np.array(r['mirror']['emotion']))/2
MX=np.array([eflip(C[k],'emotion@1.2e') for k in fit]); FX=np.array([eflip(C[k],'faceapi-expression@1.2') for k in fit])
shipped=0.6*MX+0.4*FX
EX=np.array([emb(k,'faceapi-expression@1.2') for k in fit])
FRD=np.array([emb(k,'faceres-deep@1.6') for k in fit]); FA=np.array([emb(k,'faceapi-age-gender@1.2e') for k in fit])
K=7
def fitm(X,y,lam):
    n,d=X.shape; X1=np.hstack([np.ones((n,1)),X]); Y=np.eye(K)[y]
    def f(w):
        W=w.reshape(d+1,K); Z=X1@W; Z-=Z.max(1,keepdims=True); P=np.exp(Z); P/=P.sum(1,keepdims=True)
        l=-np.sum(Y*np.log(P+1e-12))+0.5*lam*n*np.sum(W[1:]**2)
        G=X1.T@(P-Y); G[1:]+=lam*n*W[1:]
        return l,G.ravel()
    return minimize(f,np.zeros((d+1)*K),jac=True,method='L-BFGS-B',options={'maxiter':3000}).x.reshape(d+1,K)
def predm(W,X):
    Z=W[0]+X@W[1:]; Z-=Z.max(1,keepdims=True); P=np.exp(Z); return P/P.sum(1,keepdims=True)
def folds(seed):
    r=np.random.RandomState(seed); o=r.permutation(len(fit)); f=np.zeros(len(fit),int); f[o]=np.arange(len(fit))%10; return f
def cv(make,lam,seed=34):
    F=folds(seed); P=np.zeros((len(fit),K))
    for f in range(10):
        tr=F!=f; te=F==f; Xtr,Xte=make(tr),make(te); mu=Xtr.mean(0); sd=Xtr.std(0)+1e-6
        W=fitm((Xtr-mu)/sd,y[tr],lam); P[te]=predm(W,(Xte-mu)/sd)
    return P
names=['neu','hap','sur','ang','sad','dis','fea']
def report(name,P):
    pr=P.argmax(1); ok=pr==y
    pc=' '.join(f'{names[c]} {ok[y==c].sum()}/{(y==c).sum()}' for c in range(K))
    sh=shipped.argmax(1)==y
    print(f'{ok.sum()}/{len(fit)} [{pc}] vs shipped +{(ok&~sh).sum()} -{(sh&~ok).sum()} shared-fit {ok[:0].sum() if False else ok[[C[k]["source"]=="shared" for k in fit]].sum()}/18  {name}',flush=True)
report('shipped (fixed)',shipped)
L=lambda A: np.log(np.clip(A,1e-6,1))
sets={'logpool(MX,FX)':lambda m:np.hstack([L(MX[m]),L(FX[m])]),'EX':lambda m:EX[m],'EX+logMX':lambda m:np.hstack([EX[m],L(MX[m])]),'EX+logMX+logFX':lambda m:np.hstack([EX[m],L(MX[m]),L(FX[m])]),'EX+FRD+logMX':lambda m:np.hstack([EX[m],FRD[m],L(MX[m])]),'EX+FA+logMX':lambda m:np.hstack([EX[m],FA[m],L(MX[m])])}
for nm,mk in sets.items():
    for lam in [1e-3,1e-2,3e-2,1e-1,3e-1]:
        report(f'{nm} lam {lam}',cv(mk,lam))
