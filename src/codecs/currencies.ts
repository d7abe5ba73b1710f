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
// Packed to keep the front-end bundle small: 26 groups, one per first letter from A to Z (each
// letter starts at least one code), each group the last two letters of its codes in alphabetical
// order ('EDFN…' in the first group is AED AFN …), in LOWER case for the codes whose minor unit
// is not a hundredth of the unit (docs/rules.md C3, currency: amounts are counted in hundredths,
// docs/rules.md I1.7, so these are refused rather than read 100× or 10× wrong). Minor units from
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
  'EDFNLLMDOARSUDWGZN AMBDDThdifMDNDOBOVRLSDTNWPYNZD ADDFHEHFHWlflpNYOPOURCUPVEZK jfKKOPZD ' +
  'GPRNTBUR JDKP BPELHSIPMDnfTQYD KDNLTGUF DRLSNRqdRRsk MDodpy ESGSHRmfPWrwwdYDZT ' +
  'AKBPKRRDSLyd ADDLGAKDMKNTOPRUURVRWKXNXVYRZN ADGNIOOKPRZD mr ABENGKHPKRLNyg AR ONSDUBwf ' +
  'ARBDCRDGEKGDHPLEOSRDSPTNVCYPZL HBJSMTndOPRYTDWDZS AHgxSDSNyiYUywZS EDESnduv ST ' +
  'afCDCGofpf ER ARMWWG'

/** Every listed code → true when its minor unit is a hundredth (its letters upper case in `packed`). */
const unpack = (groups: string): Map<string, boolean> => {
  const codes = new Map<string, boolean>()
  groups.split(' ').forEach((group, letter) => {
    const first = String.fromCharCode(65 + letter)
    for (let i = 0; i < group.length; i += 2) {
      const rest = group.slice(i, i + 2)
      codes.set(first + rest.toUpperCase(), rest < 'a')
    }
  })
  return codes
}

const listed: ReadonlyMap<string, boolean> = /* @__PURE__ */ unpack(packed)

// -------------------------------------------------------------------------------------
// refinements
// -------------------------------------------------------------------------------------

/**
 * True when the listed code `s` has a minor unit of a hundredth (2 decimals). `s` must be a code
 * of the list (three upper-case letters): for anything else the answer means nothing.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { currencyMinorUnitOk } from './currencies.js'
 * assert.strictEqual(currencyMinorUnitOk('NOK'), true)
 * assert.strictEqual(currencyMinorUnitOk('JPY'), false) // no minor unit
 * assert.strictEqual(currencyMinorUnitOk('KWD'), false) // thousandths
 */
export const currencyMinorUnitOk = (s: string): boolean => listed.get(s) === true

/**
 * True when `s` is an active ISO 4217 alphabetic code, exactly as listed (upper case), whatever
 * its minor unit. Runs in constant time whatever the length of `s`.
 *
 * @internal
 * @example
 * import * as assert from 'node:assert'
 * import { isListedCurrency } from './currencies.js'
 * assert.strictEqual(isListedCurrency('JPY'), true)
 * assert.strictEqual(isListedCurrency('HRK'), false) // historic
 */
export const isListedCurrency = (s: string): boolean => s.length === 3 && listed.has(s)

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
  /* @__PURE__ */ [...listed.keys()].filter(currencyMinorUnitOk)
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
export const isCurrencyCode = (s: string): boolean => isListedCurrency(s) && currencyMinorUnitOk(s)
