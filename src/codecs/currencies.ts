/**
 * The currencies a payment may be made in (docs/rules.md C3: "an active ISO 4217 code, upper case,
 * on the list, not just three letters", whose minor unit is a hundredth of the unit).
 *
 * Source: ISO 4217 List One ("current currency and funds"), as amended up to 2026, which already
 * names XCG (Caribbean guilder, replacing ANG, 2025), ZWG (Zimbabwe Gold, replacing ZWL, 2024),
 * SLE (replacing SLL), VED next to VES, and no longer names CUC (2021), HRK (2023) or BGN
 * (Bulgaria adopted the euro on 2026-01-01). Historic codes (ISO List Three) are not here.
 *
 * @module currencies
 */

// -------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------

// Every List One code that has a minor unit is here, fund codes included (BOV, CHE, CHW, CLF,
// COU, MXV, USN, UYI, UYW: ISO lists them as active); the codes whose minor unit ISO gives as
// "N.A." (XAU XAG XPD XPT, XBA–XBD, XDR, XSU, XUA, XTS, XXX) are left out, because amounts here are
// integers in the minor unit (docs/rules.md I1.7) and those units have none.
//
// Packed to keep the front-end bundle small (letters of codes do not compress: this form costs
// about a third less gzipped than the codes' letters). Each code is a number, its letters read in
// base 26 (AAA = 0, AED = 81, ZZZ = 17 575); the codes ascend, and each character gives the step
// from the previous code (from -1 for the first) as its char code minus 35: a step below 79 is
// one character, a longer one two (79 + (first - 114) × 92 + second - 35). A space before a code
// marks a code whose minor unit is not a hundredth of the unit (docs/rules.md C3, currency:
// amounts are counted in hundredths, docs/rules.md I1.7, so these are refused rather than read
// 100× or 10× wrong). Minor units from
// the "Minor unit" column of the same ISO 4217 List One: 0 decimals BIF CLP DJF GNF ISK JPY KMF
// KRW PYG RWF UGX UYI VND VUV XAF XOF XPF; 3 decimals BHD IQD JOD KWD LYD OMR TND; 4 decimals
// CLF UYW; every other code here has 2. The list in full:
//
//   AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN
//   BZD CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR
//   FJD FKP GBP GEL GHS GIP GMD GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY
//   KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU
//   MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON
//   RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP
//   TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED VES VND VUV WST XAF XCD XCG XOF XPF YER
//   ZAR ZMW ZWG
const packed =
  "r@Grn5Tr4bZr)<4g r, ?r:=;7g5Gr$U3=r$r;$4 r+ -`4(_r/2rB swBrAt.s:t8KMu8Iuzmr):r0 ?r{rItTr*rk<snsIV cK 6ve W Ru@W< rJr3 W rCWM4Bsdr|E rhWr*fr?^F9r'n=6@+993rzXrlDsn t|txrHTBr$9 tgb|Hr2U [rH/K2APIr1r0bI;Lr/9s>hr# -Ir+Bqr12 s$t@- rk/ %9rG2 sS s@wv s:U& tS =uRwDtYsl"

const unpack = (steps: string): Map<string, boolean> => {
  const codes = new Map<string, boolean>()
  let n = -1
  for (let i = 0; i < steps.length; i++) {
    const hundredths = steps[i] !== ' '
    if (!hundredths) i++
    let step = steps.charCodeAt(i) - 35
    if (step >= 79) step = 79 + (step - 79) * 92 + steps.charCodeAt(++i) - 35
    n += step
    // n is below 26³: `| 0` truncates as Math.floor would
    codes.set(String.fromCharCode(65 + ((n / 676) | 0), 65 + (((n / 26) | 0) % 26), 65 + (n % 26)), hundredths)
  }
  return codes
}

const listed: ReadonlyMap<string, boolean> = /* @__PURE__ */ unpack(packed)

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * What the list says of `s`: `true` for an active ISO 4217 alphabetic code, exactly as listed
 * (upper case), whose minor unit is a hundredth; `false` for a listed code whose minor unit is not
 * (docs/rules.md C3, currency); `undefined` for anything else. Runs in constant time whatever the
 * length of `s`.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { hundredths } from './currencies.js'
 * assert.strictEqual(hundredths('NOK'), true)
 * assert.strictEqual(hundredths('JPY'), false) // no minor unit
 * assert.strictEqual(hundredths('KWD'), false) // thousandths
 * assert.strictEqual(hundredths('HRK'), undefined) // historic
 */
export const hundredths = (s: string): boolean | undefined => (s.length === 3 ? listed.get(s) : undefined)

/**
 * The currencies paysplit accepts, in alphabetical order (a currency picker of a form can list
 * them): the active ISO 4217 alphabetic codes whose minor unit is a hundredth (docs/rules.md C3).
 *
 * @example
 * import * as assert from 'node:assert'
 * import { currencyCodes } from 'paysplit/codecs'
 * assert.strictEqual(currencyCodes.includes('NOK'), true)
 * assert.strictEqual(currencyCodes.includes('XAU'), false) // no minor unit at all
 * assert.strictEqual(currencyCodes.includes('JPY'), false) // no hundredths
 */
export const currencyCodes: ReadonlyArray<string> = /* @__PURE__ */ Object.freeze(
  /* @__PURE__ */ [...listed.keys()].filter(hundredths)
)

/**
 * True when paysplit accepts the currency `s`: an active ISO 4217 alphabetic code, exactly as
 * listed (upper case), whose minor unit is a hundredth (docs/rules.md C3). Runs in constant time
 * whatever the length of `s`.
 *
 * @example
 * import * as assert from 'node:assert'
 * import { isCurrencyCode } from 'paysplit/codecs'
 * assert.strictEqual(isCurrencyCode('NOK'), true)
 * assert.strictEqual(isCurrencyCode('nok'), false) // upper case only
 * assert.strictEqual(isCurrencyCode('XYZ'), false) // three letters, but not on the list
 * assert.strictEqual(isCurrencyCode('HRK'), false) // historic
 * assert.strictEqual(isCurrencyCode('JPY'), false) // listed, but without hundredths
 */
export const isCurrencyCode = (s: string): boolean => hundredths(s) === true
