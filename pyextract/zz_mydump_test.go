package pyextract
import ("testing";"os";"encoding/json")
func TestZZDumpFile(t *testing.T){
 p:=os.Getenv("PYF"); if p==""{t.Skip()}
 b,_:=os.ReadFile(p)
 f:=Parse(p,b)
 e:=json.NewEncoder(os.Stdout); e.SetIndent("","  ")
 if os.Getenv("SYMS")!="" { e.Encode(f.Symbols) }
 e.Encode(f.Facts)
}
