# Research tooling of branch h-gender4 (2026-12-08), removed again in the next commit: see docs/experiments/face-analyzer.md#face-embeddings.
# Reads /tmp/gender4/combine.json (face-attributes-combine.ts's cache) and /tmp/gender4/embed.json (face-attributes-embed-cache.ts).
exec(open('explore_em.py').read().split("report('shipped (fixed)',shipped)")[0])
report("shipped (fixed)",shipped)
L=lambda A: np.log(np.clip(A,1e-6,1))
def fito(X,O,y,lam,bias_pen=0.0):
    n,d=X.shape; X1=np.hstack([np.ones((n,1)),X]); Y=np.eye(K)[y]
    def f(w):
        W=w.reshape(d+1,K); Z=O+X1@W; Z-=Z.max(1,keepdims=True); P=np.exp(Z); P/=P.sum(1,keepdims=True)
        l=-np.sum(Y*np.log(P+1e-12))+0.5*lam*n*np.sum(W[1:]**2)+0.5*bias_pen*n*np.sum(W[0]**2)
        G=X1.T@(P-Y); G[1:]+=lam*n*W[1:]; G[0]+=bias_pen*n*W[0]
        return l,G.ravel()
    return minimize(f,np.zeros((d+1)*K),jac=True,method='L-BFGS-B',options={'maxiter':3000}).x.reshape(d+1,K)
def cvo(make,lam,bp,seed=34):
    F=folds(seed); P=np.zeros((len(fit),K)); O=L(shipped)
    for f in range(10):
        tr=F!=f; te=F==f; Xtr,Xte=make(tr),make(te); mu=Xtr.mean(0); sd=Xtr.std(0)+1e-6
        W=fito((Xtr-mu)/sd,O[tr],y[tr],lam,bp); Z=O[te]+W[0]+((Xte-mu)/sd)@W[1:]; Z-=Z.max(1,keepdims=True); Pp=np.exp(Z); P[te]=Pp/Pp.sum(1,keepdims=True)
    return P
for lam in [0.1,0.3,1,3]:
    for bp in [1e9]:
        report(f'offset shipped + EX lam {lam} no biases',cvo(lambda m:EX[m],lam,bp))
