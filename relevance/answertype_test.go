package relevance_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/freshctx/freshctx/internal/testenv"
	"github.com/freshctx/freshctx/relevance"
)

// An event's analysis carries the term of each answer type its text states:
// an amount of money, a time or a date, a cause or a problem; a number that is
// none of them carries none.
func TestTextsStateAnswerTypes(t *testing.T) {
	money, when, why, who := relevance.MoneyTerm, relevance.TimeTerm, relevance.ReasonTerm, relevance.PersonTerm
	// a plural thing a change counts anew states a count
	// and so does a group's size
	for text, want := range map[string]bool{"Arrival moved to 19 July; nights reduced to 2": true, "Guests raised to 12": true, "Fee reduced to 29": false,
		"MV-9001 booked for 15 Dec, crew of 3": true, "Table for 4 confirmed": true, "Booked for 15 Dec": false,
		// points taken or scored (分), not a clock's minutes nor minutes waited
		"闯 红灯，罚款 200 元，扣 6 分": true, "成绩：78 分": true, "会议 10 点 30 分 开始": false, "等 5 分钟": false,
		// a count added, by its number or by its place ("a fourth"), not a
		// place alone ("the second payment")
		"PB-3319: 5 more guests confirmed": true, "2 extra chairs delivered": true, "MV-5520: a fourth mover added for the piano": true,
		"GL-7713: a third unit added, 1,610 EUR": true, "The second payment is due": false, "A second reminder was sent": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.CountTerm); got != want {
			t.Errorf("%q states a count: %v, want %v", text, got, want)
		}
	}
	// how often: a rate of times or of things done, every …, 每天; not a price
	// a month, nor an ordinal's number
	for text, want := range map[string]bool{"Pet sitting: 2 visits a day, 150.00 EUR": true, "Take one capsule three times a day": true,
		"Regular clean booked: every second Friday": true, "Delivered weekly on Mondays": true, "每天 两 次，饭后 服用": true, "一天两次": true,
		"每个月 自动 扣款": true, "Membership 39.00 EUR a month": false, "第 2 次 课 完成": false, "Visit booked for Friday": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.FrequencyTerm); got != want {
			t.Errorf("%q states how often: %v, want %v", text, got, want)
		}
	}
	// a calendar week by its number is a time ("delivery week 51", "KW 12"),
	// not one written with a longer number, nor a week without one
	for text, want := range map[string]bool{"F-66121 delayed: supplier shortage, new week 2": true, "Order F-66121: 4 chairs, delivery week 51": true,
		"Liefertermin KW 12": true, "Dining set shipped, arrives calendar week 7": true, "Week 2026-05 report sent": false, "Week of the sale: 20% off": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, when); got != want {
			t.Errorf("%q states a time: %v, want %v", text, got, want)
		}
	}
	// a percentage states a rate, written with "%", "percent" or 百分之
	for text, want := range map[string]bool{"Offer for MA-10442: 3.41% fixed for 10 years": true, "20 percent off all shoes": true,
		"利率 2.1%": true, "首付 百分之三十": true, "Fee of 3 per cent": true, "5 pct off": true, "Tariff 0.29 EUR/kWh": false, "Room 204, 3 nights": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.PercentTerm); got != want {
			t.Errorf("%q states a percentage: %v, want %v", text, got, want)
		}
	}
	// where a delivery was left is a place, and where a vehicle is parked or
	// taken, a station
	for _, text := range []string{"DPD: delivered to neighbour at no. 14", "Car delivery scheduled at the dealer in Hannover",
		"3K912 车位 调整 到 B 区 18 号", "B-7702 ride ended at the University", "Repair at partner garage Autofix Nord",
		"JC-7710 接送 地点 改 到 南京南 高铁站", "Seat 14C confirmed"} {
		if !slices.Contains(relevance.Analyze(text).Terms, relevance.PlaceTerm) {
			t.Errorf("%q states no place", text)
		}
	}
	// a seat for a child in a car is a thing added, no place
	for _, text := range []string{"CH-55810 child seat added, 35 EUR", "Booster seat for RC-6610 added", "RC-6610 car seat for a baby added"} {
		if slices.Contains(relevance.Analyze(text).Terms, relevance.PlaceTerm) {
			t.Errorf("%q states a place", text)
		}
	}
	// a dosage tells what to do, as fasting before an exam does
	for _, text := range []string{"Cream: twice a day", "Tablets: 3 times daily", "炉甘石 洗剂，每天 涂 两次", "体检 上午 8 点，需 空腹"} {
		if !slices.Contains(relevance.Analyze(text).Terms, relevance.InstructionTerm) {
			t.Errorf("%q states no instruction", text)
		}
	}
	for text, want := range map[string][]string{
		"Car insurance renewed, premium 612.00 EUR per year":           {money},
		"Refund of €35 approved":                                       {money},
		"Chat (agent): we charged you twenty dollars":                  {money}, // a number in words
		"退款二十元":                                                        {money},
		"Paid 15 bucks":                                                {money},
		"Charged $20 for the upgrade":                                  {money},
		"退款 15 元已批准":                                                   {money},
		"Invoice paid: USD 49":                                         {money},
		"Balance 1,250.00":                                             {money},
		"Scratch pre-existing, not charged to you":                     {money, why}, // nothing to pay answers how much; a scratch is a finding
		"Display cable replaced under warranty":                        {money},      // nothing to pay
		"CI-4418 re-inspection: no extra fee":                          {money},      // (no extra fee, no additional charge)
		"屏幕保修期内免费更换":                                                   {money},
		"Chat (staff): Yes, fitting costs 25 EUR":                      {money}, // a chat line's speaker answers no "who"
		"客服：补牙一般会打麻药":                                                  nil,
		"维修费用不收费":                                                      {money},
		"Loan approved at 5.9 percent APR":                             nil,
		"Webhook deliveries failing with HTTP 502":                     {why},
		"Direct Debit returned by the bank: account closed":            {why},
		"Cheque returned unpaid":                                       {why},
		"Soup spilled in the bag":                                      {why},
		"Return opened: left ear cup crackles":                         {why},
		"Return RMA-55102: headphones, no sound on left side":          {why}, // (a part gone: no sound, a flat tyre, a warning light lit, noise on a line)
		"B-7720 reported: flat rear tyre":                              {why},
		"4401 brake warning light on":                                  {why},
		"INC0048817: line test shows noise on the copper line":         {why},
		"Ticket INC-88421: VPN disconnects every hour":                 {why},
		"Question about noise level: 19 dB on the lowest setting":      nil,
		"MR-1127 会员 卡 扣 500 元":                                         {money}, // (an identifier's letters name no one: MR-1127 is no Mr)
		"Filling done; no hot drinks":                                  nil,
		"C7 reported: front brake weak":                                {why}, // (a weak brake, signal or battery is a fault)
		"Two sticking keys found on the upright":                       {why}, // (a part that sticks, frayed, seized or snapped)
		"SD-3306 检查：插座 进水 短路，需 更换 插座":                                  {why}, // (an electrical fault: water got in, a short circuit)
		"SD-3306 inspection: socket shorted by water":                  {why},
		"GX-5012 远程 检测：光 衰 过高":                                         {why},        // (a reading too high or too low)
		"PX-5521-01 approved: 178 EUR after excess":                    {money, why}, // (a sum after what was taken off it)
		"SF-1029 复核：读数 抄 错，实际 12 吨":                                    {why},        // (a mistake made: a reading copied wrong, misread)
		"SF-1029 recheck: meter misread, actually 12 tons":             {why},
		"报修 SD-3306：厨房 插座 跳闸":                                          {why}, // (a breaker tripped: the problem reported)
		"Brake cable frayed, replaced":                                 {why},
		"Fine for B-KL 2290: parked in zone 1 without permit":          {why}, // (a rule broken)
		"1207 卡 消磁，已 重新 写卡":                                            {why}, // (a card demagnetised, an address unclear, an oil stain)
		"4490 地址 不 详，请 补充 门牌 号":                                        {why},
		"血检 结果：轻度 肠胃炎":                                                 {why}, // (an inflammation, a cough: someone unwell)
		"狗 一直 咳嗽":                                                      {why},
		"SH-20260415 检测：压缩机 坏，在 保修 期 内":                                {why}, // (坏 spaced, without 了)
		"TH-32 back online, signal weak (-82 dBm)":                     {why},
		"复诊 前 请 停用 药膏 一天":                                              nil, // what it asks the customer to do states no problem
		"账户 已 停用，请 联系 我们":                                              {why},
		"练车 取消：刘师傅 请假":                                                 {why, who, who}, // (请假: on leave)
		"酸梅汤 洒 了 一半":                                                   {why},
		"New account opened":                                           nil,
		"90 percent of the monthly 20 GB used":                         nil,
		"Appointment on Friday 11:00":                                  {when},
		"Delivery on 20.05.2026":                                       {when},
		"kleinhaus.de A record changed to 203.0.113.40":                nil, // an address or a version is no date and no sum
		"db-eu-2 upgraded to 15.4.2":                                   nil,
		"Reminder for invoice 2026/11/0418":                            nil, // (nor is a number parted like one, whose last part is long)
		"Booked for 5/20/26":                                           {when},
		"Order O-7001 placed":                                          nil,
		"R-2281: guests changed from 4 to 6":                           {who},        // people by their part (and a count)
		"CL-7731 approved: 240.00 GBP less 99.00 GBP excess":           {money, why}, // what was taken off: why less came
		"Sold on resale, payout 70.30 EUR after the 5% fee":            {money, why},
		"Less than 5 minutes away":                                     {when},
		"Technician visit booked for 8:30":                             {when, who},
		"Ava's key worker is now Lina":                                 {who},      // (a worker by their part)
		"已 送达，放 在 前台":                                                  nil,        // (the front desk where it was left: a place)
		"SF-66020 已 签收，签收人：前台":                                         {who},      // (the one who signed for it)
		"同伴 加入：小李":                                                     {who, who}, // (a surname after 小: someone by name, twice as 张阿姨)
		"Pick-up from 10am":                                            {when},
		"Call back at 9 pm":                                            {when},
		"Renewal due 2026-05-20":                                       {when},
		"Tickets bought: 1 x football match, 20 May":                   {when},
		"Tariff switched from December 1":                              {when},
		"Driver on the way, arriving in 10 minutes":                    {when, who},
		"Out of stock, expected back in 10 days":                       {when, why}, // why it is late, and when it comes
		"Refund reaches your card in 3-5 business days":                {when},      // a kind of day between the number and its unit
		"Lenses in production, about 7 working days":                   {when},
		"Refund arrives in a few days, within two weeks at most":       {when}, // a number in words
		"Dispatch within 24h":                                          {when},
		"Repair done within 1.5 hours":                                 {when},
		"Your parcel arrives tomorrow":                                 {when},
		"周六班调整为周日上午 9 点":                                               {when},
		"骑手已取餐，预计 20 分钟送达":                                             {when, who},
		"入住时间 5 月 3 日":                                                 {when},
		"Tariff switched to Green Fix 24 months":                       nil,    // a plan's length
		"Next check-up due in 6 months":                                {when}, // how soon, in months: a time (and a length)
		"Discount ends after two years":                                {when},
		"Storage add-on: plus 500 GB for 10.00 USD per month":          {money},
		"Support 24/7 by chat":                                         nil,
		"You may cancel at any time":                                   nil, // "may" is a month only beside a number
		"Order O-7001 placed, ratio 3:1":                               nil,
		"会员优惠券已发放：满 50 减 10":                                           nil,
		"外卖订单 D-30021 已下单：宫保鸡丁和米饭，共 42 元":                              {money},
		"Card payment of 12.50 EUR for express shipping declined":      {money, why},
		"Card payment declined: insufficient funds":                    {why},
		"Binding adjusted after release problems":                      {why}, // a plural as its singular
		"Credit note for the travel billed twice":                      {why}, // a charge made twice
		"Duplicate order removed":                                      {why},
		"Doors now open at 19:00":                                      {when},
		"File sync failed on device MacBook":                           {why},
		"Delivery delayed because of the weather":                      {why},
		"Account locked after three wrong passwords":                   {why},
		"支付失败：余额不足":                                                    {why},
		"Return started for SH-4410: too small":                        {why}, // why it is sent back
		"Delivery failed: nobody at home":                              {why}, // why it could not be done
		"GL-30421: tint not as ordered, lenses remade":                 {why}, // not what was ordered
		"Item not available, refund issued":                            {why},
		"Oat milk out of stock, removed from the order":                {why},
		"Tickets sold out":                                             {why},
		"No one answered the door":                                     {why},
		"Penalty notice PCN-55302: parked in zone D without a permit":  {why}, // what was missing
		"Only 2 of the 4 tyres in stock":                               {why}, // fewer than were due
		"Closed all week: on holiday":                                  {why},
		"Not bad at all, thanks!":                                      nil,
		"TM-8801 退货申请：尺码偏小":                                            {why},
		"Too many guests on the list, 2 tables added":                  {who}, // (guests: people by their part; no reason)
		"Order O-7001 delivered to the parcel locker":                  nil,
		"Refund R-7001 approved":                                       nil,
		"Shipping of the rewards moved to June":                        {when}, // a month after a preposition
		"Offer valid until March":                                      {when},
		"Visit moved to Mon 8-10":                                      {when}, // a weekday written short before its hours
		"Delivery slot 15-17":                                          {when}, // a slot's hours
		"Rated sun 5 stars":                                            nil,
		"Marching band tickets, may sell out":                          nil,
		"Grid approval still pending":                                  {why},
		"Technician could not access the building":                     {why, who},
		"Parcel was not delivered: nobody home":                        {why},
		"Please do not reply to this e-mail":                           nil,
		"Transfer TR-100482 held for review":                           {why},
		"Security deposit held on card ending 4471":                    nil,
		"Diagnosis: display cable replaced under warranty":             {money, why}, // a finding, and nothing to pay
		"MOT result: FAIL - worn front brake pads":                     {why},        // a fault found
		"Advisory: slight corrosion on rear subframe":                  {why},
		"Check-up done: small cavity on the lower left molar":          {why}, // what a dentist finds
		"体检结果：血压偏高":                                                    {why},
		"RX-3121 on hold: the prescription scan is unreadable":         {why},
		"RP-33091 hinge on order, 10 days":                             {when, why},  // waiting for a part, as "on hold"
		"SJ-8830 申请换货：屏幕有坏点":                                           {why},        // a flaw found
		"Repair BR-770: extra 45.00 EUR, waiting for your OK":          {money, why}, // a hold-up, as "on hold"
		"WM-2201 送达超时 25 分钟":                                           {when, why},  // late (超时)
		"Turn on the hold music":                                       nil,
		"RX-30418 on back-order: supplier expects stock Friday":        {when, why, who}, // after a hyphen, as "on back order"
		"Oat milk out-of-stock":                                        {why},
		"Direct debit of 65.00 EUR set up for the 1st of each month":   {money, when}, // a day as an ordinal
		"Discs on backorder until the 14th":                            {when, why},
		"Room on the 2nd floor":                                        nil,
		"Order O-55120 is on_hold: 1 x espresso grinder":               {why}, // a status value
		"PO-7731 short-picked: 8 of 12 cases":                          {why},
		"Walk back to the order desk":                                  nil,
		"外卖订单 7788 商家已拒单":                                              {why, who},
		"Cleaner for CL-3390 changed from Ana to Marek":                {who},
		"Appointment with Dr. Weiss":                                   {who},
		"API response time above 800 ms":                               nil,        // ms: milliseconds, not a title
		"Care guide sent: watering an olive tree":                      nil,        // a guide is a text as often
		"Allergy tablets need a prescription upload before dispatch":   {why},      // a requirement holds it
		"CL-901: please upload the vet invoice and the surgery report": {why, who}, // what is asked of the customer (and a vet)
		"API key revoked by an administrator":                          {why},
		"You need to bring your passport":                              nil, // (a question's "need to" states none)
		"Buyer Sara asked to see the car on Sunday":                    {when, who},
		"骑手已取餐":                                                        {who},
		"FL-6040 delivered to reception, signed by K. Brandt":          {who}, // whoever it was done by
		"Claim approved by the insurer":                                {who},
		"Parcel signed for by R. Diaz":                                 {who},
		"TK-44120 transferred to Jana Weiss":                           {who}, // whom a thing was handed to: who has it
		"Laptop AT-IT-0518 issued to Jonas":                            {who},
		"Recipient not in, left with the neighbour at no. 10":          {who},
		"Refund transferred to your account":                           nil,   // (the customer's own)
		"Playlist shared with tom.b@example.org":                       {who}, // an e-mail address
		"Tag @design in the thread":                                    nil,
		"Locksmith Jakub on the way":                                   {who},
		"Mia was picked up at 12:40 by her father":                     {when, who}, // family
		"保洁已完成，请确认":                                                    nil,         // (cleaning, the service)
		"保洁员 王姐 已接单":                                                   {who, who},  // (王姐 by name, as 张阿姨)
		"孩子 已 由 妈妈 接走":                                                 {who},
		"因暴雨配送延迟":                                                      {why},
		"WY-30427 楼上 水管 漏 了":                                           {why},                 // a leak, 漏 alone
		"HA-2281 left aid whistling, sent back to the maker":           {why},                 // a fault heard
		"骑手 上报：电动车 没电":                                                 {why, who},            // a battery gone flat (骑手, a role)
		"DR-4470 lesson Thursday cancelled: car in the garage":         {when, why},           // a plan broken, its cause after the colon
		"Cancelled: order O-7712":                                      nil,                   // (a label, what was cancelled)
		"SW-1180 December fee waived: closure days credited":           {money, why},          // a charge not held, as a plan
		"#40-2291 closed: new certificate uploaded":                    nil,                   // (how it ended)
		"GH-52018 改 为 周三 下午：王 医生 手术":                                   {when, why, who, who}, // (in Chinese, before what it became; 王 医生 by name)
		"您 改期：搬家 改 到 12 月 13 日":                                        {when},                // (a label)
		"HV-2040 done: pressure low, topped up":                        {why},                 // a reading out of range, as a check finds it
		"Nala has mild tartar, cleaning advised":                       {why},                 // what a dentist or a vet finds
		"BJ-20511 改 由 张阿姨 上门":                                          {who, who},            // a person by name counts twice
		"小区 东门 快递柜":                                                    nil,
		"Low prices on all boilers this week":                          nil,
		"Gale warning: double your mooring lines":                      {why}, // weather, as a storm is
		"台风 影响，航班 取消":                                                  {why},
		"报告预计 5 个工作日出":                                                 {when}, // working days, as "5 days"
		// the Chinese lists are the English ones' words in Chinese
		"签证申请被驳回：材料不符":                                     {why},
		"安装顺延":                                             {why},
		"检查发现门封条老化漏水":                                      {why}, // a fault found
		"阳台 灯 不 亮":                                         {why}, // a device not working (不亮, 不启动, 不工作)
		"保洁阿姨已出发":                                          {who},
		"One socket circuit has no earth, rewiring needed": {why}, // a finding (as "needs")
		"PF-S-4410 is held by customs at destination":      {why}, // held by: a hold-up
		"Report for PC-5130: signs of mice in the loft":    {why}, // a finding
		"Tom noticed moss in the back lawn":                {why},
		"X-ray: small fracture in the left front paw":      {why},
		"Check-up done: small crack in upper right molar":  {why},
		"Inspection: front brake discs below limit":        {why},
		"Router firmware bug confirmed":                    {why},
		"Storage quota reached: 100 GB used of 100 GB":     {why},
		"Storage quota increased to 200 GB":                nil,
		"Alarm disarmed by Alex":                           {who},
		"Lesson cancelled by you":                          nil, // the customer is no one "who" asks for
		"Booking changed by us":                            nil,
		"Session 2 done with Tom":                          {who}, // a given name, by its case
		"Parcel sent with Royal Mail":                      nil,   // a company's two words
		"Paid with PayPal":                                 nil,
		"Invoice paid by card":                             nil,
		"电池鼓包，建议更换":                                        {why},
		"场次改至 5 号厅，座位不变":                                   nil, // a hall's number is no date (5 号: the 5th)
		"5 号上午 10 点":                                       {when},
		"92 号 汽油 加满":                                       nil, // a grade of petrol: no day of a month
		"31 日 前 缴费":                                        {when},
		"请到 3 号窗口办理":                                       nil, // a counter's number is no date either
		"因节假日物流停运":                                         {why},
		"月底前完成":                                            {when},
		"需要我自己装吗？":                                         nil,     // (not 需要: "do I need to …?")
		"NX-30211 点的什么？":                                   nil,     // an identifier's number is no hour
		"HT/2026/0118 月租 3 600 元":                          {money}, // nor a month, however its parts are joined
		"NX-30211 12 点 送达":                                 {when},
	} {
		var got []string
		for _, term := range relevance.Analyze(text).Terms {
			if term == relevance.DelayTerm {
				term = why // (a delay is the reason a question asking why looks for: TestWhatIsWrongIsNoDelay)
			}
			if term == money || term == when || term == why || term == who {
				got = append(got, term)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%q states %q, want %q", text, got, want)
		}
	}
}

// Chinese written with spaces between its words, as a segmenter leaves it,
// states what it states written unspaced ("请 在 周五 前 上传" tells what
// to do as "请在周五前上传" does), and a number with its unit states a length
// wherever it stands in a run of Chinese ("有效期一年").
func TestSpacedChineseStatesWhatItDoesUnspaced(t *testing.T) {
	types := func(text string) (out []string) {
		for _, term := range relevance.Analyze(text).Terms {
			if strings.Contains(relevance.MoneyTerm+relevance.QuantityTerm+relevance.TimeTerm+relevance.DurationTerm+relevance.ReasonTerm+
				relevance.PersonTerm+relevance.PlaceTerm+relevance.InstructionTerm+relevance.CountTerm+relevance.SaidTerm, term) {
				out = append(out, term)
			}
		}
		return out
	}
	for _, text := range []string{"请在周五前上传身份证照片", "快递柜取件码882211", "退款将在1-7个工作日退回原支付账户", "订单7788商家已拒单", "有效期一年"} {
		var spaced []rune // a space between each two Chinese characters
		for _, r := range text {
			if len(spaced) > 0 && unicode.Is(unicode.Han, r) && unicode.Is(unicode.Han, spaced[len(spaced)-1]) {
				spaced = append(spaced, ' ')
			}
			spaced = append(spaced, r)
		}
		if got, want := types(string(spaced)), types(text); len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%q states %q, %q states %q: want the same, and something", string(spaced), got, text, want)
		}
	}
	for text, want := range map[string]bool{"有效期一年": true, "期限一个月": true, "年卡 3,600 元": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.DurationTerm); got != want {
			t.Errorf("%q states a length: %v, want %v", text, got, want)
		}
	}
}

// A question's answer types: how much asks for an amount, when for a time,
// why for a reason; others ask for none of them.
func TestAnswerTypes(t *testing.T) {
	money, when, why, who, place, instr := relevance.MoneyTerm, relevance.TimeTerm, relevance.ReasonTerm, relevance.PersonTerm, relevance.PlaceTerm, relevance.InstructionTerm
	asksFor(t, map[string][]string{
		"when is the technician coming?":           {when},
		"what is my monthly payment?":              {money}, // a sum by its name
		"月供多少？":                                    {money},
		"what time does the shop open?":            {when},
		"which day is my class on?":                {when},
		"BC6021 周 几 上课？":                           {when}, // which weekday
		"星期几 来？":                                   {when},
		"一周几次？":                                    {relevance.CountTerm, relevance.FrequencyTerm}, // (how often: no weekday)
		"XJ2219 修 要 多少？":                           {money},                                        // what it takes
		"3360 账单 多少？":                              {money},                                        // a sum by its name, then 多少
		"TC60012 一共 几 份？":                          {relevance.CountTerm},                          // a total count, not a sum
		"一共 多少 钱？":                                 {money},
		"4415 报 了 多少？":                             {money}, // a verb moving money, then 多少
		"每月 缴 多少？":                                 {money},
		"领 了 多少 张？":                                {relevance.CountTerm}, // a measure word after 多少: not money
		"1188 扣 几 分？":                              {relevance.CountTerm}, // points taken
		"0442 还 剩 多少？":                             {money},               // what is left of the object, or of a card or a wallet: its balance
		"钱包 还 剩 多少？":                               {money},
		"4471 卡 里 还 有 多少？":                         {money},                  // (还有 多少 of a card: its balance)
		"流量 还 剩 多少？":                               {relevance.QuantityTerm}, // (of a thing named: its quantity, no sum)
		"押金多少？":                                    {money},
		"XX-20419 要 交 什么 钱？":                       {money}, // which sum, no papers to hand in
		"还要交什么材料？":                                 {instr},
		"AZ-91405 哪个 师傅 来？":                        {who}, // which person of a role
		"哪一位 老师 上课？":                               {who},
		"how long until my parcel comes?":          {when},
		"what's the ETA of my driver?":             {when},
		"RC-5520 pick-up time?":                    {when}, // a question naming the time it asks for
		"delivery date for my sofa":                {when},
		"我的香锅怎么这么晚才到？":                             {why}, // why so late
		"英语课改到什么时候了？":                              {when},
		"下次 打针 什么 时候？":                             {when}, // Chinese written with spaces between its words asks as unspaced
		"我 刚才 付 了 多少？":                             {money},
		"我几点可以入住？":                                 {when},
		"哪天送到？":                                    {when},
		"几号送到？":                                    {when},
		"茶几 多少 钱？":                                 {money}, // 几 ends 茶几 (coffee table): no 几多 asking
		"几点 的 飞机？":                                 {when},
		"药怎么吃？":                                    {instr}, // how to take a medicine
		"what did they need me to send for 99812?": {instr}, // what the business asked of the customer
		"what did you want from me on 88213?":      {instr},
		"what papers did they ask for?":            {instr},      // what the business asked for
		"what do you need for hc77120?":            {instr},      // what the business needs of the customer
		"what papers did you need from me?":        {why, instr}, // (a missing paper is also why a case waits)
		"药 怎么 用？":                                  {instr},
		"体检前要注意什么？":                                {instr}, // what to watch out for before it
		"where did my headphones end up?":          {place}, // where a thing was left
		"where did they leave my parcel?":          {place},
		"where was the sofa delivered?":            {place}, // where a thing was handled: delivered, loaded, parked
		"where was container 5512 loaded?":         {place},
		"医生 说 我 得 了 什么？":                           {why}, // a diagnosis: what a doctor found
		"what's my diagnosis?":                     {why},
		"how often do I give the drops?":           {instr, relevance.FrequencyTerm},
		"还缺什么材料？":                                  {why, instr}, // what is still to be handed in (a missing one holds things up)
		"住院的还要交什么材料？":                              {instr},
		"how do I take the antibiotics?":           {instr},
		"孩子查出什么？":                                  {why},  // what a check found
		"我在几号厅？":                                   nil,    // which hall: no date
		"几号登机口？":                                   nil,    // which gate
		"我的柜子是几号？":                                 nil,    // which number a thing has
		"FB-6021 install date?":                    {when}, // a date named, whatever date
		"ZC-77102 租 几 天？":                          {when}, // how many days: a length
		"修 要 几 小时？":                                {when},
		"what are the dates of my stay?":           {when},
		"are his shots up to date?":                nil,
		"今天是几号？":                                   {when},
		"截止日期是几号？":                                 {when},
		"what are the opening hours?":              {when},
		"what interest rate did the bank offer?":   {relevance.PercentTerm}, // a rate: a percentage
		"ML-20931 rate?":                           {relevance.PercentTerm},
		"what rate did they offer on mg30411?":     {relevance.PercentTerm}, // (a noun after "what", whatever follows)
		"利率多少？":                                    {relevance.PercentTerm},
		"what's the exchange rate?":                nil, // a rate that is a price or a verb is none
		"what did I rate the chicken order?":       nil,
		"how much does CI-5520 cost?":              {money},
		"when will I be charged?":                  {money, when},
		"what do I have to pay myself?":            {money},
		"what's the total on MV-8820?":             {money},
		"why was it so expensive?":                 {money, why},
		"这次维修一共花了多少？":                              {money},
		"我付了多少？":                                   {money},
		"要交多少？":                                    {money},
		"what's my balance?":                       {money},
		"去机场那趟退了多少？":                               {money},
		"每 期 还 多少？":                                {money}, // repaid, charged, deducted: 还, 收, 扣
		"押金 扣 了 多少？":                               {money},
		"why was my card declined?":                {why},
		"what was causing the noise?":              {why},
		"what caused the delay?":                   {why},
		"how come my order was cancelled?":         {why},
		"为什么我的卡被拒了？":                               {why},
		"what did they find in my house?":          {why},
		"what did Marco find?":                     {why},
		"what did the scan show?":                  {why, relevance.VerdictTerm}, // (show and reveal only ending the question; "show" as "say": what a check found)
		"what did the blood test reveal?":          {why},
		"what did the x-ray show for pt8821?":      {why, relevance.VerdictTerm}, // (or before a preposition and the thing it is of)
		"did the vet notice anything?":             {why},
		"can you find my order?":                   nil,
		"我的奶茶怎么还没到？":                               {why},
		"what's holding up my installation?":       {why},
		"do you still need anything from me?":      {why}, // a missing requirement holds things up
		"what are you waiting for?":                {why},
		"what were they waiting on from me":        {why},
		"what else needs fixing on the bike?":      {why}, // a fault found
		"anything I should keep an eye on?":        {why},
		"who is coming to fix the boiler?":         {who},
		"谁来送货？":                                    {who},
		"where do I need to go for class?":         {place},
		"where do they bring the food?":            {place}, // where someone else does it
		"where does the tour start?":               {place},
		"where will the truck park?":               {place},
		"where are my seats?":                      {place},
		"where is the boxing class?":               {place}, // something that happens somewhere
		"where's my meeting with the lawyer?":      {place},
		"where is the shoot now?":                  {place}, // (a photo shoot happens somewhere too)
		"where is my parcel?":                      nil,     // its whereabouts: its status
		"我该去哪上课？":                                  {place},
		"在哪取？":                                     {place},
		"在哪考科目一？":                                  {place}, // where to sit an exam
		"我们坐哪？":                                    {place}, // a verb and 哪: where to do it
		"外卖放哪了？":                                   {place},
		"寄到哪了？":                                    nil, // where a thing has got to: where it stands
		"SF-66012 在 哪？":                            nil,
		"PN-5520 amount?":                          {money},
		"what do I need to take with me?":          {instr},
		"what should I bring on the day?":          {instr},
		"考试要带什么？":                                  {instr},
		"how do I fix the syncing?":                {instr}, // how to put it right
		"网络问题怎么解决？":                                {instr},
		"房租每月多少？":                                  {money}, // rent, how much a month
		"when do I have to be there?":              {when},
		"where is my refund?":                      nil,
		"which seat do I have now?":                nil,
		"is the time slot still free?":             nil,
		"did they find my umbrella?":               nil, // a lost thing, not what was found wrong
		"why did the show stop?":                   {why},
		"did the show start?":                      nil,
		"退款到了吗？":                                   nil,
		"did the parcel arrive?":                   nil,
	})
}

// asksFor checks the answer types each question asks for.
func asksFor(t *testing.T, want map[string][]string) {
	t.Helper()
	for q, w := range want {
		if got := relevance.AnswerTypes(q); !slices.Equal(got, w) {
			t.Errorf("%q asks for %q, want %q", q, got, w)
		}
	}
}

// "Where is PS-5092?" of a photo shoot, a lesson or a party asks where it
// takes place: the line moving it, not the newest word on it; of a thing
// installed somewhere, where it is; of a parcel, where its story stands.
func TestWhereAHappeningIsIsItsPlace(t *testing.T) {
	shoot := []relevance.Candidate{
		{Source: "bookings", Time: ago(58), Text: "Photo shoot PS-5092: family portraits, Sunday 15:00, city park, 250 EUR"},
		{Source: "bookings", Time: ago(48), Text: "PS-5092 location changed to the botanical garden"},
		{Source: "notes", Time: ago(38), Text: "Bring a change of clothes for the children"},
		{Source: "bookings", Time: ago(28), Text: "PS-5092 extra hour added, 330 EUR"},
		{Source: "bookings", Time: ago(18), Text: "PS-5092 moved to Sunday 16:30 for better light"},
		{Source: "bookings", Time: ago(8), Text: "PS-5092 gallery online, 64 photos"},
	}
	for _, q := range []string{"where is ps5092?", "where is PS-5092 now?"} {
		firstOnlyWith(t, relevance.NewQuery(q, nil), shoot, 1, func(w *relevance.Weights) { w.Place = 0 })
	}
	// of a thing introduced as installed somewhere, where it is
	router := []relevance.Candidate{
		{Source: "infra", Time: ago(56), Text: "Router MAC 3C:84:6A:1F:20:9B installed in office 2"},
		{Source: "infra", Time: ago(36), Text: "20:9B firmware updated to 4.1"},
		{Source: "infra", Time: ago(6), Text: "20:9B guest network enabled"},
	}
	firstOnlyWith(t, relevance.NewQuery("where is 3c846a1f209b?", nil), router, 0, func(w *relevance.Weights) { w.Place = 0 })
	parcel := tenMinutesApart([]string{"Order PR-2290 placed: 2 posters", "Order PR-2290 shipped with DHL, tracking 3SDEF81920",
		"PR-2290 moved to the next van round", "PR-2290 out for delivery"})
	if _, _, f := fused("where is PR-2290?", parcel); slices.Contains(f.Asks, "place") {
		t.Errorf("a parcel: fusion %+v, want no place asked", f)
	}
}

// A question asking why looks for the events that state a cause or a problem:
// "why is the screen black?" shares no word with the failure that answers it.
// (Not "why can't I stream?" nor "why is there no picture?": its "can't", its
// "no picture" state a problem, which the events stating one match as a word.)
func TestAWhyQuestionLooksForAReason(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "billing", Time: ago(40), Text: "Card payment for the monthly plan declined: card expired"},
		{Source: "web", Time: ago(10), Text: "Signed in from the smart TV app"},
		{Source: "mail", Time: ago(20), Text: "Opened the monthly newsletter e-mail"},
	}
	with, without := withAndWithout("why is the screen black?", cands, func(w *relevance.Weights) { w.Reason = 0 })
	if with[0].Lexical != 1 || without[0].Lexical != 0 {
		t.Errorf("the declined payment should be the only lexical match, and only with Reason: with %+v, without %+v", with, without)
	}
}

// A question asking when looks for the events that say when: of two events
// about one appointment, the one stating the new time becomes the best lexical
// match (without Time, the one sharing more of the question's words is).
func TestAWhenQuestionLooksForATime(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "service", Time: ago(50), Text: "Fibre installation appointment requested"},
		{Source: "service", Time: ago(30), Text: "Appointment moved to Thursday between 13 and 17"},
		{Source: "web", Time: ago(20), Text: "Signed in from the mobile app"},
	}
	with, without := withAndWithout("when is the fibre installation appointment?", cands, func(w *relevance.Weights) { w.Time = 0 })
	if with[1].Lexical <= with[0].Lexical*0.5 || with[1].Lexical <= without[1].Lexical {
		t.Errorf("the event stating the time should gain: with %+v, without %+v", with, without)
	}
	if with[2].Lexical != 0 {
		t.Errorf("an event stating no time gains nothing: %+v", with[2])
	}
}

// withAndWithout are the candidates' components for q with the default
// weights and with off applied to them.
func withAndWithout(q string, cands []relevance.Candidate, off func(*relevance.Weights)) (with, without []relevance.Components) {
	w := relevance.DefaultWeights
	_, with = relevance.Score(relevance.NewQuery(q, nil), cands, w, nil, testNow)
	off(&w)
	_, without = relevance.Score(relevance.NewQuery(q, nil), cands, w, nil, testNow)
	return with, without
}

// A later event of a story inherits the story's relevance only when it states
// what the question asks for: "what time do I leave now?" matches the
// booking by its date, and the newer seat change on the booking, which
// states no time, must not answer it in the booking's name.
func TestOnlyEventsStatingTheAnswerTypeInherit(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "bookings", Time: ago(59), Text: "Booking AB7Q2 confirmed: Hamburg to Munich, 12 April"},
		{Source: "operations", Time: ago(26), Text: "Train ICE 581 delayed: departure now 09:40 instead of 08:10"},
		{Source: "bookings", Time: ago(2), Text: "Seat reservation on AB7Q2 changed to car 7"},
	}
	scores, comps := relevance.Score(relevance.NewQuery("what time do I leave now?", nil), cands, relevance.DefaultWeights, nil, testNow)
	if !ranksFirst(scores, 1) || comps[2].Thread != 0 {
		t.Errorf("the delay stating the new time should rank first, and the seat change inherit nothing: %v %+v", scores, comps)
	}
}

// A line that only offers or promises help, or advertises, states no fact of
// the customer's case, whatever its source: it echoes the question's words
// ("Let me check the status of your return and refund"), and the refund's approval must still
// come first for "where is my refund?" (the issue's demo) with the default
// weights, vectors included.
func TestALineOfferingHelpAnswersNothing(t *testing.T) {
	for text, want := range map[string]bool{
		"Let me check the status of your return and refund":                  true,
		"Chat (bot): I can help you with orders, returns and payments":       true,
		"Thanks for your message, a member of our team will get back to you": true,
		"您好，请问有什么可以帮您？":                                                      true,
		"请稍等，我帮您查一下退款进度":                                                     true,
		"You may also like: Polar Echo tour, tickets on sale Friday":         true,
		"Spring courses are now open for registration":                       true,
		"新品上市，限时八折":                                                          true,
		"How did we do? Rate your delivery experience":                       true,
		"Review request for OR-66120":                                        true,
		"Join our loyalty club today":                                        true,
		"Winter boots 40% off this week":                                     true,
		"Free shipping on orders over 50 EUR with code SNOW":                 true,
		"会员专享：周末立减 30 元":                                                     true,
		"Weekend deals on city breaks from 59 EUR":                           true,
		"Upgrade to 5 GB for just 3 EUR more":                                true,
		"Get fit for summer with our personal trainers":                      true,
		"我们会尽快回复您":                                                           true,
		"Complete your setup: monitors up to 30% off":                        true, // a discount held out
		"Spring service 20% off until Sunday":                                true,
		"Charged 64.50 EUR for LD-3301, 10% off for the stain":               false, // a discount given on what was charged
		"Spring service 20% off for all members":                             true,
		"Sunglasses with your prescription from 79 EUR":                      true, // a price from so much
		"Upgrade to a suite from 499.00 EUR":                                 true,
		"Hire 3 tools, get the 4th free this weekend":                        true,
		"New: cat visits in your area, first visit free":                     true,
		"Gift a piano lesson to a friend":                                    true,
		"加购相册升级，立享八折":                                                        true,
		"邀请好友办卡，双方各得 1 个月":                                                   true,
		"BX0912请为本次服务评价":                                                     true, // a request to rate the service only
		"请 为 上 次 服务 打分":                                                      true,
		"BJ-30727已完成，请评价":                                                    false, // the job done, then the request
		"您 评价 了 5 星":                                                         false,
		"Monthly fee changed from 30 EUR to 35 EUR":                          false, // a price changed
		"Rental BR-5530: city bike, Sunday only, 15 EUR":                     false, // a day only, then its price
		"Cinema tickets from 9 EUR, this week only":                          true,
		"Refund from 20.00 EUR approved":                                     false,
		"Visit moved from 14 March to 21 March":                              false,
		"Leak allowance applied: 45.00 EUR taken off your next bill":         false, // a credit of the case
		"Brake pads replaced free of charge under warranty":                  false,
		"20% off applied to order O-7001":                                    false,
		"Subscribed to the monthly newsletter":                               false,
		"Refund R-7001 approved":                                             false,
		"Customer asked to check the refund status":                          false,
		"寄件满 3 次送 5 元券":                                                      true, // a reward held out for so many shipments
		"Vitamins 3 for 2 this week":                                         true, // a bundle
		"Bring 5 shirts, pay for 4 - this month only":                        true,
		"Lesson 6 moved to Wednesday 17:00 this week only":                   false, // a change for that week: a fact
		"Boost your listings for 1.99 EUR":                                   true,
		"Table for 4 for 2 hours booked":                                     false,
		"Add glass cover for 2.50 EUR a month":                               true, // buy more, at a price held out
		"Book upholstery cleaning now and save 15%":                          true,
		"Upgrade to Fibre 1000 ordered, 59.99 EUR per month from next bill":  false, // done: a fact
		"Add 5 EUR to your balance to keep calling":                          false, // what to do
		"Upgrade to Premium for Europe-wide cover":                           true,  // a suggestion to buy
		"Upgrade to Premium requested for FM-1180":                           false,
		"Upgrade offered at the desk: SUV for 15.00 EUR/day, declined":       false, // the customer's answer: a fact
		"Add-on bought: 5 GB extra for 5.00 EUR, valid until 1 Nov":          false, // bought: a fact
		"Upgrade to Anytime from 1 June: 34.99 GBP a month":                  false, // a change dated from a day: a fact
		"Switch to Fibre 900 from 79 EUR a month":                            true,  // a price from: held out
		"Renewal quote for policy CI-71540: 612.00 GBP, up from 540.00 GBP":  false, // a price compared with what it was
		"Monthly fee reduced from 29 EUR":                                    false,
		"Bring a friend for free this weekend":                               true,
		"会员优惠券已发放：满 50 减 10":                                                 false, // a coupon issued: a fact of the case
		"已使用满 100 减 20 优惠券，实付 136 元":                                         false,
		"Order again this month and get 10% off":                             true,  // a discount to get
		"Members save 10% on weekend stays":                                  true,  // a saving held out
		"You saved 4.50 EUR with your coupon":                                false, // saved: a fact
		"Plus 会员 领 50 元 优惠券":                                                 true,  // a coupon to claim
		"已领 50 元 优惠券":                                                        false, // claimed: a fact
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.OfferTerm); got != want {
			t.Errorf("%q offers help: %v, want %v", text, got, want)
		}
	}
	if q := relevance.NewQuery("can you look into my order, please?", nil); slices.Contains(q.Analysis.Terms, relevance.OfferTerm) {
		t.Errorf("a question asking for help looks for the lines offering it: %q", q.Analysis.Terms)
	}
	emb := testenv.LocalEmbedder(t, 384)
	texts := []string{"Refund R-7001 for order O-7001 approved: 89.00 EUR to your card", "Return for order O-7001 received at the warehouse",
		"Let me check the status of your return and refund", "Signed in from the mobile app"}
	var cands []relevance.Candidate
	for i, text := range texts {
		v, _ := emb.Embed(context.Background(), []string{text})
		cands = append(cands, relevance.Candidate{Source: "activity", Time: ago([]int{14, 30, 1, 3}[i]), Text: text, Embedding: v[0]})
	}
	q := "where is my refund?"
	qv, _ := emb.Embed(context.Background(), []string{q})
	firstOnlyWith(t, relevance.NewQuery(q, qv[0]), cands, 0, func(w *relevance.Weights) { w.Offer = 0 })
}

// firstOnlyWith checks that cands[want] ranks first for q with the default
// weights, and not once off changes them: the test shows what the weight does.
func firstOnlyWith(t *testing.T, q relevance.Query, cands []relevance.Candidate, want int, off func(*relevance.Weights)) {
	t.Helper()
	w := relevance.DefaultWeights
	if scores, _ := relevance.Score(q, cands, w, nil, testNow); !ranksFirst(scores, want) {
		t.Errorf("%q: %q should rank first: %.3f", q.Text, cands[want].Text, scores)
	}
	off(&w)
	if scores, _ := relevance.Score(q, cands, w, nil, testNow); ranksFirst(scores, want) {
		t.Errorf("%q: %q still ranks first without the weight (the test shows nothing): %.3f", q.Text, cands[want].Text, scores)
	}
}

// A question asking who looks for the events that name a person by a role or
// a title: of two events about tomorrow, the one naming the technician.
func TestAWhoQuestionLooksForAPerson(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "service", Time: ago(40), Text: "Technician Omar assigned for tomorrow's visit"},
		{Source: "orders", Time: ago(10), Text: "Delivery of the new sofa tomorrow"},
		{Source: "web", Time: ago(5), Text: "Signed in from the mobile app"},
	}
	firstOnlyWith(t, relevance.NewQuery("who is coming tomorrow?", nil), cands, 0, func(w *relevance.Weights) { w.Person = 0 })
}

// A question asking where to go looks for the events that name a place: "where
// do I need to go for class?" shares no word with "room 4.12".
func TestAWhereToQuestionLooksForAPlace(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "classes", Time: ago(15), Text: "Classroom for Spanish B1 moved to room 4.12"},
		{Source: "classes", Time: ago(7), Text: "Monday class on 11 May cancelled: teacher ill"},
		{Source: "payments", Time: ago(40), Text: "Payment of 390.00 EUR for the course received"},
	}
	firstOnlyWith(t, relevance.NewQuery("where do I need to go for class?", nil), cands, 0, func(w *relevance.Weights) { w.Place = 0 })
}

// Where a parcel or an order is collected names a place: a store, a pickup
// point, a depot, a parcel shop, a Packstation, 驿站, 门卫, 丰巢; so does where
// a boat lies or a coach or a ferry is boarded (a berth, a bay, a pier), an
// exam is taken (考场), a gate by its side (北门), and where a thing is had
// online (the app, the website, a portal), and a seat chosen (选座, 靠窗).
func TestWhereToCollectNamesAPlace(t *testing.T) {
	for _, text := range []string{"LP-55133 ready for pickup at store Alexanderplatz", "Parcel waiting at the UPS Access Point on Lindenstrasse",
		"Hire HR-6613: collect from the Leeds depot", "包裹已到菜鸟驿站", "已送达，放在门卫处",
		"Your parcel is waiting at the Packstation 114", "Left at the parcel shop on Market Street", "快递已放入丰巢柜，取件码 3321",
		"You are moved to berth D-03", "Coach leaves from bay 3", "Ferry boards at pier 2", // (where a boat, a coach is boarded)
		"考试 地点：车管所 考场", "请 到 北门 取餐", // (where an exam is taken, a gate by its side)
		"E-tickets for TK-66120 available in the app from 1 Feb", "Your report is on the patient portal", // (where a thing is had online)
		"PH-9021 moved to the park, same time", "Shoot moved to the beach at 18:00", // (where a shoot or a class takes place)
		"JP-66108 选座 23A", "座号 12 排 5 座，靠窗"} { // (a seat chosen: where one sits, "坐 哪")
		if !slices.Contains(relevance.Analyze(text).Terms, relevance.PlaceTerm) {
			t.Errorf("%q names no place", text)
		}
	}
	if slices.Contains(relevance.Analyze("1 loyalty point added").Terms, relevance.PlaceTerm) {
		t.Errorf("a loyalty point names a place")
	}
}

// Where no identifier tells a story, a later event that says it changes what
// the most relevant one said, shares a word with it and states what is asked
// is the newer word on it: the visit moved, not the visit booked; or, for a
// question naming the thing it asks for ("which room …?"), names it. One that
// changes nothing ("Visit feedback requested") inherits nothing.
func TestAChangeSupersedesWithoutAnIdentifier(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "service", Time: ago(50), Text: "Boiler service visit booked: Tuesday 8:00 to 12:00"},
		{Source: "service", Time: ago(20), Text: "Visit moved to Wednesday 13:00 to 17:00"},
		{Source: "service", Time: ago(10), Text: "Visit feedback requested by Wednesday 18:00"},
		{Source: "web", Time: ago(5), Text: "Signed in from the mobile app"},
	}
	q := relevance.NewQuery("when is the boiler service?", nil)
	firstOnlyWith(t, q, cands, 1, func(w *relevance.Weights) { w.ThreadAnswer = 0 })
	if _, comps := relevance.Score(q, cands, relevance.DefaultWeights, nil, testNow); comps[2].Thread != 0 {
		t.Errorf("an event that changes nothing inherited %.3f", comps[2].Thread)
	}
	// so for a question naming the thing it asks for ("which room"), when the
	// change names it too
	rooms := []relevance.Candidate{
		{Source: "bookings", Time: ago(40), Text: "Meeting room Atlas booked: Thursday 15:00-16:00"},
		{Source: "facility", Time: ago(25), Text: "Atlas closed on Thursday for painting; your booking moved to room Borealis"},
		{Source: "facility", Time: ago(12), Text: "Printer on floor 2 out of toner, use floor 3"},
	}
	firstOnlyWith(t, relevance.NewQuery("which room is my meeting in?", nil), rooms, 1, func(w *relevance.Weights) { w.ThreadAnswer = 0 })
}

// A later event on the object that states what the question asks for is the
// story's newer word on it: for "when", the back-order's date comes before
// the order that matched the question's words.
func TestTheStorysNewerWordOnWhatIsAsked(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "orders", Time: ago(50), Text: "Order K-100 placed: electric kettle with temperature control"},
		{Source: "orders", Time: ago(35), Text: "K-100 out of stock, expected back in 5 days"},
		{Source: "web", Time: ago(5), Text: "Signed in from the mobile app"},
	}
	firstOnlyWith(t, relevance.NewQuery("when does my electric kettle arrive?", nil), cands, 1, func(w *relevance.Weights) { w.ThreadAnswer = w.ThreadFirst })
}

// A Chinese character alone is weaker evidence than a pair: for "那次修车花了多少钱？",
// the service stating the amount comes before the newer rating that shares
// two characters (次, 修) and no word.
func TestAChineseCharacterAloneWeighsLess(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "service", Time: ago(25), Text: "保养已完成：更换机油，260 元"},
		{Source: "ratings", Time: ago(15), Text: "您给本次维修打了 5 星"},
		{Source: "app", Time: ago(20), Text: "已登录小程序"},
	}
	firstOnlyWith(t, relevance.NewQuery("那次修车花了多少钱？", nil), cands, 0, func(w *relevance.Weights) { w.CJKChar = 1 })
}

// A question that names a person without asking who ("how many users are we
// paying for?") does not look for the events naming one, as a question naming
// a place does not look for places: only "who" asks for a person.
func TestOnlyWhoLooksForAPerson(t *testing.T) {
	for q, want := range map[string]bool{
		"how many users are we paying for?": false,
		"is the technician still coming?":   false,
		"who signed for the parcel?":        true,
		"which person approved my holiday?": true,
		"which vet sees VC-3317?":           true, // (a role after "which" asks who has it)
		"which dental nurse is on today?":   true,
		"谁签收的？":                             true,
	} {
		got := slices.Contains(relevance.NewQuery(q, nil).Analysis.Terms, relevance.PersonTerm) ||
			slices.Contains(relevance.AnswerTypes(q), relevance.PersonTerm)
		if got != want {
			t.Errorf("%q looks for a person: %v, want %v", q, got, want)
		}
	}
}

// A question asking what to bring or do looks for the events that tell the
// customer what to do: "what do I need to take to the course?" shares
// no word with "Please bring a swimming cap and goggles".
func TestAWhatToBringQuestionLooksForAnInstruction(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "courses", Time: ago(40), Text: "Please bring a swimming cap and goggles"},
		{Source: "courses", Time: ago(50), Text: "Swimming course for beginners booked: first lesson on Monday 18:00"},
		{Source: "payments", Time: ago(10), Text: "Course fee 60.00 EUR received"},
	}
	firstOnlyWith(t, relevance.NewQuery("what do I need to take to the course?", nil), cands, 0, func(w *relevance.Weights) { w.Instruction = 0 })
	// what to send is asked as what to do: "Please upload …" tells it
	papers := []relevance.Candidate{
		{Source: "jobs", Time: ago(8), Text: "Interview booked for Thursday 10:00"},
		{Source: "jobs", Time: ago(30), Text: "Please upload references before the interview"},
		{Source: "jobs", Time: ago(50), Text: "Application submitted: Backend Engineer, Berlin"},
	}
	firstOnlyWith(t, relevance.NewQuery("what do I still have to send?", nil), papers, 1, func(w *relevance.Weights) { w.Instruction = 0 })
	for text, want := range map[string]bool{
		"Bring your passport and a pen, phones must stay in the lockers": true,
		"Chat (agent): Please bring your cycling shoes":                  true,
		"Battery must be charged fully before the first ride":            true,
		"拔牙前请勿空腹":                                                        true,
		"Don't forget your swimming cap":                                 true,
		"Passport copy received":                                         false,
		"Take-away order T-12 ready":                                     true, // (a clause that begins with a verb: the rule's price)
		"Order ready for pick-up":                                        false,
		"Parcel 3S-88145: collect by Friday at Kiosk Nord, bring ID":     true,
		"Collection point changed to Kiosk Nord":                         false,
		"Canvas image resolution too low, please upload a larger file":   true, // ("please" before a verb, wherever it stands)
		"Thank you, please note the new opening hours":                   true,
		"Delivered, thank you for shopping with us, please come again":   false,
		"处方：阿莫西林 颗粒，每日 两次，连服 5 天":                                        true, // a dosage
		"每日 转账 限额 5,000 元":                                               false,
		"D-305 开课 前 请 安装 Excel 和 Python":                                 true,  // 请 before a verb
		"PW-30118 退票申请已提交":                                               false, // 申请: apply
		"YB-0312 需 补充 出院 小结 和 费用 明细":                                     true,  // asked of the customer
		"请 补交 近 三个月 银行 流水":                                               true,
		"瑜伽课老师临时请假，课程取消":                                                 false, // 请假: leave
		"请问您的订单号是多少？":                                                    false,
		"IN-60733 repair quote 385 EUR, please approve":                  true, // (approve, choose, verify, accept)
		"CL-7701 approved: 420.00 EUR minus 20% co-pay":                  false,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.InstructionTerm); got != want {
			t.Errorf("%q tells what to do: %v, want %v", text, got, want)
		}
	}
}

// A question asking what an object is or holds finds the event that
// introduced it, however far its story has gone since; "what did KT-771 do
// about …" asks no such thing.
func TestADescriptionQuestionFindsTheIntroduction(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "orders", Time: ago(45), Text: "Order KT-771 placed: 2 tents, 1 camping stove"},
		{Source: "shipping", Time: ago(20), Text: "KT-771 handed to the carrier"},
		{Source: "shipping", Time: ago(5), Text: "KT-771 out for delivery, arriving before 18:00"},
	}
	for _, q := range []string{"what's in KT-771?", "what was KT-771 about?", "what was KT-771 for?", "KT-771 里面有什么？",
		"what was KT-771?", "what is KT-771?", "KT-771 买的什么？", "what items are in KT-771?", // (nothing asked but what it is; what was bought)
		"what does KT-771 include?", "KT-771 包含什么？"} { // (what it holds)
		firstOnlyWith(t, relevance.NewQuery(q, nil), cands, 0, func(w *relevance.Weights) { w.Description = 0 })
		if _, _, f := fused(q, cands); !slices.Contains(f.Asks, "description") || f.AsksStatus {
			t.Errorf("%q: fusion %+v, want asks description and no status share", q, f)
		}
	}
	if scores, _, f := fused("what did I order on KT-771?", cands); !ranksFirst(scores, 0) || !slices.Contains(f.Asks, "description") || f.AsksStatus {
		t.Errorf("what was ordered: %.3f, fusion %+v, want the order first, asked as a description with no status share", scores, f)
	}
	rental := []relevance.Candidate{
		{Source: "rentals", Time: ago(45), Text: "Rental CR-2208: field recorder and two microphones, 3 days, 45.00 EUR"},
		{Source: "rentals", Time: ago(20), Text: "CR-2208 extended by 1 day"},
		{Source: "rentals", Time: ago(5), Text: "CR-2208 returned in good condition"},
	}
	if _, _, f := fused("what did I rent with CR-2208?", rental); !slices.Contains(f.Asks, "description") {
		t.Errorf("what was rented: fusion %+v, want asks description", f)
	}
	if _, _, f := fused("what did you do about KT-771?", cands); slices.Contains(f.Asks, "description") {
		t.Errorf("what was done about it: fusion %+v, want no description", f)
	}
	// what a file was opened for, what a policy insures; not what is under way
	register := []relevance.Candidate{
		{Source: "房产", Time: ago(46), Text: "不动产 登记 第 018324 号：抵押 登记"},
		{Source: "房产", Time: ago(26), Text: "018324 抵押 金额 200 万 元"},
		{Source: "房产", Time: ago(6), Text: "018324 登记 完成"},
	}
	if _, _, f := fused("018324 在 办 什么？", register); slices.Contains(f.Asks, "description") {
		t.Errorf("what is under way: fusion %+v, want no description", f)
	}
	policy := []relevance.Candidate{
		{Source: "车险", Time: ago(46), Text: "车险 保单 PDAA2026-3100-7854：交强险，950 元"},
		{Source: "车险", Time: ago(26), Text: "7854 已 续保"},
		{Source: "车险", Time: ago(6), Text: "7854 车主 变更"},
	}
	// what a deed of it was, said by one verb (买 的 是 什么, 考 什么);
	// not what was done since (换 了 什么) nor what to bring (带 什么)
	exam := []relevance.Candidate{
		{Source: "报名", Time: ago(47), Text: "考生 号 KS2026181：计算机 二级，12 月 21 日 上午，考场 第 一 中学"},
		{Source: "成绩", Time: ago(17), Text: "KS2026181 上 次 成绩：78 分，已 通过"},
		{Source: "报名", Time: ago(7), Text: "KS2026181 准考证 可 下载"},
	}
	for q, want := range map[string]bool{"KS2026181 考 什么？": true, "KS2026181 考 的 是 什么？": true, "KS2026181 换 了 什么？": false, "KS2026181 带 什么？": false,
		"KS2026181 做 的 什么？": true, "KS2026181 要 做 什么？": false} { // (做: what was done, with 的; else what to do)
		if _, _, f := fused(q, exam); slices.Contains(f.Asks, "description") != want {
			t.Errorf("%q: fusion %+v, want description asked: %v", q, f, want)
		}
	}
	for q, c := range map[string][]relevance.Candidate{"第 018324 号 是 办 什么？": register, "PDAA2026-3100-7854 保 什么？": policy, "KS2026181 考 什么？": exam} {
		if scores, _, f := fused(q, c); !ranksFirst(scores, 0) || !slices.Contains(f.Asks, "description") || f.AsksStatus {
			t.Errorf("%q: %.3f, fusion %+v, want the first event first, asked as a description with no status share", q, scores, f)
		}
	}
}

// A question asking what its object was changed to or replaced with is
// answered by the newest event naming it that says so (its description), not
// by a newer word on where it stands ("ready for collection").
func TestWhatAThingWasChangedToIsItsNewestChange(t *testing.T) {
	rx := tenMinutesApart([]string{"Prescription RX-8120: amoxicillin 500 mg", "Prescription RX-8102: ibuprofen 400 mg, 20 tablets",
		"RX-8102 out of stock, switched to naproxen", "RX-8102 ready for collection"})
	for _, q := range []string{"what was rx8102 changed to?", "what did they replace RX-8102 with?", "RX8102 换成 什么 药？"} {
		if scores, _, f := fused(q, rx); !ranksFirst(scores, 2) || !slices.Contains(f.Asks, "description") {
			t.Errorf("%q: the switch should rank first, asked as the description: %.3f %+v", q, scores, f)
		}
	}
}

// 总价 asks what a thing costs, as 多少钱 does: the contract's price, not the
// down payment on it.
func TestATotalPriceIsThePrice(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "合同", Time: ago(50), Text: "保洁 服务 合同 HT-330：12 次，2 400 元"},
		{Source: "支付", Time: ago(40), Text: "HT-330 首付 1 200 元 已 支付"},
		{Source: "服务", Time: ago(10), Text: "HT-330 第 一 次 保洁 完成"},
	}
	for _, q := range []string{"HT330总价多少？", "HT-330 总价 是 多少"} {
		if scores, _, f := fused(q, cands); !ranksFirst(scores, 0) || !slices.Contains(f.Asks, "description") {
			t.Errorf("%q: the contract should rank first, asked as its price: %.3f %+v", q, scores, f)
		}
	}
}

// A question asking for a total ("一共 多少 钱？", "what's the total for …?")
// is answered by the newest event naming the object that states one ("完工，共
// 840 元", the rental's invoice) or adds a sum to it ("+70 EUR"), not the
// price it was booked at.
func TestATotalIsTheNewestTotalStated(t *testing.T) {
	service := []relevance.Candidate{
		{Source: "保养", Time: ago(57), Text: "保养 预约 BY-6610：周一 上午 9 点，小 保养，480 元"},
		{Source: "保养", Time: ago(47), Text: "BY-6610 检查 发现 刹车 片 磨损，建议 更换，360 元"},
		{Source: "保养", Time: ago(37), Text: "您 同意 更换 刹车 片"},
		{Source: "保养", Time: ago(27), Text: "BY-6610 完工，共 840 元"},
		{Source: "活动", Time: ago(7), Text: "洗车 券 2 张 已 发放"},
	}
	rental := []relevance.Candidate{
		{Source: "rentals", Time: ago(53), Text: "Rental RA-40917: VW Golf, plate M-FX 2231, 3 days, 147.00 EUR"},
		{Source: "rentals", Time: ago(44), Text: "Rental RA-40917: child seat added, 15.00 EUR"},
		{Source: "fines", Time: ago(35), Text: "Speed camera fine for M-FX 2231: 30.00 EUR, admin fee 25.00 EUR"},
		{Source: "rentals", Time: ago(26), Text: "Rental RA-40925: Opel Corsa, plate M-KL 805, 2 days, 88.00 EUR"},
		{Source: "billing", Time: ago(1), Text: "Invoice for RA-40917: 217.00 EUR"},
	}
	firstFor(t, service, map[string]int{"BY6610 一共 多少 钱？": 3, "BY-6610 总共 多少？": 3})
	firstFor(t, rental, map[string]int{"what's the total for ra40917?": 4})
	// so is one adding a sum to it ("+90 EUR", "加 300 元"), for a total or
	// what it costs now
	hire := tenMinutesApart([]string{"Bike hire BH-2207: 2 e-bikes, 2 days, 140 EUR", "BH-2207 helmets handed out",
		"BH-2207 extended by 1 day, +70 EUR", "BH-2207 bikes returned"})
	firstFor(t, hire, map[string]int{"bh2207 total?": 2, "what does BH-2207 cost now?": 2})
	move := tenMinutesApart([]string{"搬家 订单 BJ-7720：周六 上午，2 室，1 100 元", "BJ-7720 加 冰箱 搬运，加 300 元", "BJ-7720 改 到 周日 上午 9 点", "BJ-7720 搬家 完成"})
	firstFor(t, move, map[string]int{"BJ7720 一共 多少 钱？": 1})
	// (补 a sum, or 加 a few words before it)
	hotel := tenMinutesApart([]string{"酒店 订单 JD-7710：2 晚，大床房，960 元", "JD-7710 升级 为 湖景房，补 200 元", "JD-7710 已 办理 入住"})
	firstFor(t, hotel, map[string]int{"JD7710 一共 多少 钱？": 1})
	laundry := tenMinutesApart([]string{"洗衣 订单 XY-5510：大衣 2 件，共 120 元", "XY-5510 袖口 有 油渍，需 加 特殊 处理 30 元", "XY-5510 洗 好 了"})
	firstFor(t, laundry, map[string]int{"XY5510 一共 多少 钱？": 1})
	// and so is one stating the first price with the sums added since,
	// paid or billed, though it names no total (360 + 80 = 440)
	carWash := []relevance.Candidate{
		{Source: "订单", Time: ago(58), Text: "洗车 订单 XC-7710：精洗，周六 上午 10 点，120 元"},
		{Source: "订单", Time: ago(48), Text: "XC-7710 加 打蜡，加 60 元"},
		{Source: "订单", Time: ago(38), Text: "XC-7710 改 到 周日 上午 11 点"},
		{Source: "通知", Time: ago(28), Text: "洗车 后 两 小时 内 请 勿 淋雨"},
		{Source: "订单", Time: ago(18), Text: "XC-7710 洗 好 了，可以 来 取"},
		{Source: "付款", Time: ago(8), Text: "XC-7710 已 付 180 元"},
	}
	emb := testenv.LocalEmbedder(t, 384)
	for i := range carWash {
		v, _ := emb.Embed(context.Background(), []string{carWash[i].Text})
		carWash[i].Embedding = v[0]
	}
	for _, q := range []string{"XC-7710 一共 多少？", "XC7710 一共 多少 钱？"} {
		qv, _ := emb.Embed(context.Background(), []string{q})
		if scores, _ := relevance.Score(relevance.NewQuery(q, qv[0]), carWash, relevance.DefaultWeights, nil, testNow); !ranksFirst(scores, 5) {
			t.Errorf("%q: the payment of 120 + 60 should rank first: %.3f", q, scores)
		}
	}
	tuneUp := tenMinutesApart([]string{"Bike service BS-1044: full tune-up, 80.00 EUR", "BS-1044 extra: new chain fitted, 25.00 EUR",
		"BS-1044 paid by card: 105.00 EUR", "Winter storage offer: 30 EUR per month"})
	firstFor(t, tuneUp, map[string]int{"bs1044 total?": 2, "what's the total for BS-1044?": 2})
}

// A question asking what its object costs asks what it costs now, total
// named or not: the newest event naming it that states a total ("共 66 元")
// or says it changed and states a new sum ("quantity changed to 1,000
// flyers, 139 EUR"), not the price it was ordered at; a renewal restating
// the price is no new one.
func TestAPriceIsWhatItCostsNow(t *testing.T) {
	flyers := tenMinutesApart([]string{"Print job PJ-4406: 500 flyers A5, glossy, 89 EUR", "PJ-4406: quantity changed to 1,000 flyers, 139 EUR", "PJ-4406 printed"})
	firstFor(t, flyers, map[string]int{"PJ-4406 how much?": 1, "how much is pj4406?": 1})
	lunch := tenMinutesApart([]string{"外卖 订单 WM-60211：2 份 牛肉面，58 元", "WM-60211 加 一 份 小菜，共 66 元", "WM-60211 已 送达"})
	firstFor(t, lunch, map[string]int{"WM60211 多少 钱？": 1})
	wash := tenMinutesApart([]string{"Unlimited wash plan CW-8830: 24.99 EUR a month", "CW-8830 renewed: 24.99 EUR taken", "CW-8830 wash logged"})
	firstFor(t, wash, map[string]int{"how much is CW-8830?": 0})
	// an extended warranty bought is a thing added, no change of the price
	// ("extended" before a noun, not "extended to", "extended by")
	mower := tenMinutesApart([]string{"Robot mower RM-208: ordered, 899 EUR, install 4 April", "RM-208 installed, app paired",
		"RM-208 extended warranty 3 years, 79 EUR"})
	firstFor(t, mower, map[string]int{"what did RM-208 cost?": 0})
	stay := tenMinutesApart([]string{"Boarding stay DB-4417: Bruno, 3 nights, 105 EUR", "DB-4417 extended by 2 nights, 175 EUR", "Bruno settled in"})
	firstFor(t, stay, map[string]int{"DB-4417 total?": 1})
}

// A deposit is no total: "ct 209 total?" and "一共 多少 钱？" are answered by
// what the order came to, not by the part paid ahead of it; a question
// asking what was paid ("一共 付 了 多少？") counts it.
func TestADepositIsNoTotal(t *testing.T) {
	catering := tenMinutesApart([]string{"Catering order CT-209: lunch for 40, Fri 12:00, 860 EUR", "CT-209 menu: 10 vegetarian, 3 gluten-free",
		"Headcount for CT-209 raised to 45: 967.50 EUR", "Deposit 300 EUR for CT-209 received", "Delivery for CT-209 moved to 11:30"})
	firstFor(t, catering, map[string]int{"ct 209 total?": 2, "what is the total for CT-209?": 2})
	dentist := tenMinutesApart([]string{"洗牙 YX-5512：周二 下午 3 点，张 医生，280 元", "YX-5512 改 到 周四 下午 4 点", "洗牙 前 两 小时 不要 吃 东西",
		"YX-5512 加 涂 氟，加 80 元", "YX-5512 医生 换 成 刘 医生", "YX-5512 已 付 定金 100 元"})
	firstFor(t, dentist, map[string]int{"一共 多少 钱？": 3, "YX5512 一共 多少 钱？": 3, "一共 付 了 多少？": 5})
}

// "What did I just pay for?" asks for the newest payment: an event stating an
// amount, not a newer notice that states none.
func TestWhatAPaymentWasForStatesAnAmount(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "bookings", Time: ago(40), Text: "Ferry booking FR-2231 confirmed: Piraeus to Naxos, 12 August"},
		{Source: "bookings", Time: ago(12), Text: "Cabin upgrade for FR-2231, 36.00 EUR"},
		{Source: "ops", Time: ago(1), Text: "Boarding for FR-2231 opens 45 minutes before departure"},
	}
	q := relevance.NewQuery("what did I just pay for?", nil)
	if scores, _, f := relevance.ScoreFused(q, cands, relevance.DefaultWeights, nil, testNow); !ranksFirst(scores, 1) || !slices.Contains(f.Asks, "amount") {
		t.Errorf("the upgrade should rank first, the question ask an amount: %.3f %+v", scores, f)
	}
}

// "What does F07 mean?" asks what the error is (so does "F07: what is
// it?"): the event that names it, not the later events of the repair it opened, which name the error only
// through the repair's number (link).
func TestWhatAnIdentifierMeansIsWhereItIsNamed(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "tickets", Time: ago(50), Text: "Ticket DW-2290 opened: dishwasher shows error F07, water not heating"},
		{Source: "tickets", Time: ago(30), Text: "DW-2290: engineer visit Monday 13:00-17:00"},
		{Source: "tickets", Time: ago(10), Text: "DW-2290 closed: heating element replaced"},
		{Source: "survey", Time: ago(2), Text: "How did we do? Rate your visit"},
	}
	for _, q := range []string{"what does F07 mean?", "what does F07 stand for?", "F07: what is it?", "F07 what's that?", "F07 是什么意思？", "F07 是什么东西"} {
		firstOnlyWith(t, relevance.NewQuery(q, nil), cands, 0, func(w *relevance.Weights) { w.Description = 0 })
	}
	if _, _, f := fused("what does F07 cost me?", cands); slices.Contains(f.Asks, "description") {
		t.Errorf("what it costs: fusion %+v, want no description", f)
	}
	// "which trip is TI-5520?" asks what kind of thing it is, as "what is
	// TI-5520?" does: the policy's own event, not the claim made under it
	policy := []relevance.Candidate{
		{Source: "policies", Time: ago(50), Text: "Travel insurance TI-5520: Japan, 3-17 April, 2 adults, 96 EUR"},
		{Source: "claims", Time: ago(35), Text: "Claim TC-330 under TI-5520: lost luggage, 420 EUR"},
		{Source: "claims", Time: ago(20), Text: "TC-330: please send the airline's report"},
		{Source: "claims", Time: ago(5), Text: "TC-330 approved: 420 EUR"},
	}
	firstOnlyWith(t, relevance.NewQuery("which trip is TI-5520?", nil), policy, 0, func(w *relevance.Weights) { w.Description = 0 })
}

// "What course is 0421?", "FL-0719 what van?", "0363 是 什么 药？" ask what
// kind of thing the object is, by one noun: the event introducing it says
// it, not the newest word on it. When the object changed since, the newest
// change naming it and the thing asked, and no time, says it ("升舱 至 公务舱"
// for "是 什么 舱位？", "升级 为 江景房" for "是 什么 房？"); a change of
// another thing (a teacher, a time) says nothing of it, and then no event
// is the description. Nor when it asks what it is now.
func TestWhatKindAThingIsIsWhereItIsIntroduced(t *testing.T) {
	course := []relevance.Candidate{
		{Source: "courses", Time: ago(56), Text: "Enrolment ENR/2026/0412: Spanish B1, Mondays"},
		{Source: "courses", Time: ago(46), Text: "Enrolment ENR/2026/0421: Pottery, Thursdays"},
		{Source: "courses", Time: ago(26), Text: "0421 waiting list position 2"},
		{Source: "courses", Time: ago(16), Text: "0421 place confirmed"},
	}
	for _, q := range []string{"what course is 0421?", "0421 what course?"} {
		firstOnlyWith(t, relevance.NewQuery(q, nil), course, 1, func(w *relevance.Weights) { w.Description = 0 })
	}
	pharmacy := []relevance.Candidate{
		{Source: "药房", Time: ago(57), Text: "处方 号 CF 2026 1105 0336：降压 药，30 天"},
		{Source: "药房", Time: ago(47), Text: "处方 号 CF 2026 1105 0363：止咳 糖浆，7 天"},
		{Source: "药房", Time: ago(27), Text: "0363 缺货，预计 明天 到"},
		{Source: "药房", Time: ago(7), Text: "0363 已 到货，可 取"},
	}
	firstOnlyWith(t, relevance.NewQuery("0363 是 什么 药？", nil), pharmacy, 1, func(w *relevance.Weights) { w.Description = 0 })
	flight := []relevance.Candidate{
		{Source: "机票", Time: ago(57), Text: "机票 订单 JP-202：成都 - 上海，5 月 5 日 19:10，经济舱"},
		{Source: "机票", Time: ago(30), Text: "JP-202 已 选座 32A"},
		{Source: "机票", Time: ago(16), Text: "JP-202 升舱 至 公务舱，补 差价 1,200 元"},
	}
	if scores, _, f := fused("JP-202 是 什么 舱位？", flight); !slices.Contains(f.Asks, "description") || !ranksFirst(scores, 2) {
		t.Errorf("upgraded since: %.3f, fusion %+v, want the upgrade first, as the description", scores, f)
	}
	hotel := tenMinutesApart([]string{"酒店 订单 KF-7720：标准间 1 晚，12 月 3 日 入住，380 元", "KF-7720 升级 为 豪华 套房",
		"KF-7720 延迟 退房 到 13 点", "KF-7720 含 早餐"})
	firstOnlyWith(t, relevance.NewQuery("KF7720 是 什么 房？", nil), hotel, 1, func(w *relevance.Weights) { w.Description = 0 })
	lessons := tenMinutesApart([]string{"Piano lessons PL-4410: Mondays 16:00, teacher Mira", "PL-4410 teacher changed to Anton", "PL-4410 invoice sent"})
	if _, _, f := fused("what day is pl4410?", lessons); slices.Contains(f.Asks, "description") {
		t.Errorf("another thing changed since: fusion %+v, want no description", f)
	}
	if _, _, f := fused("what course is 0421 now?", course); slices.Contains(f.Asks, "description") {
		t.Errorf("what it is now: fusion %+v, want no description", f)
	}
	// a thing added since changes no one thing asked ("what flight …?"),
	// but does a kind asked in the plural ("what extras …?")
	booking := []relevance.Candidate{
		{Source: "bookings", Time: ago(46), Text: "Booking QX7R9P: TP 577 Lisbon-Frankfurt, 20 Dec 18:40"},
		{Source: "bookings", Time: ago(16), Text: "QX7R9P extra bag added, 60 EUR"},
		{Source: "ops", Time: ago(6), Text: "Check-in opens 24 hours before departure"},
	}
	for q, want := range map[string]bool{"what flight is QX7R9P?": true, "what extras are on QX7R9P?": false} {
		if _, _, f := fused(q, booking); slices.Contains(f.Asks, "description") != want {
			t.Errorf("%q: fusion %+v, want description asked: %v", q, f, want)
		}
	}
	// (without the flight's number too, Named, which says the flight as well)
	firstOnlyWith(t, relevance.NewQuery("what flight is QX7R9P?", nil), booking, 0, func(w *relevance.Weights) { w.Description, w.Named = 0, 0 })
	// asked in the past ("what car did I get …?"), as "what car is …?": the
	// object's newer kind, where it changed since
	hire := tenMinutesApart([]string{"Rental RT-5520: Seat Ibiza, 3 days from 4 May, 120 EUR", "RT-5520 upgraded to Skoda Octavia estate, no extra cost",
		"RT-5520 deposit 300 EUR blocked", "RT-5520 returned, deposit released"})
	if scores, _, f := fused("what car did I get for rt5520?", hire); !slices.Contains(f.Asks, "description") || !ranksFirst(scores, 1) {
		t.Errorf("what car was got: %.3f, fusion %+v, want the upgrade first, as the description", scores, f)
	}
	// and what one gets ("what car do I get …?"), not what one has ("what
	// seat do I have …?", which a later event may answer by another word)
	if scores, _, f := fused("what car do I get for rt5520?", hire); !slices.Contains(f.Asks, "description") || !ranksFirst(scores, 1) {
		t.Errorf("what car one gets: %.3f, fusion %+v, want the upgrade first, as the description", scores, f)
	}
}

// A question asking what a thing's sum is ("额度是多少？", a credit line) is
// answered where the sum is said, or said to change: a later amount on the
// same card (a purchase) is another sum, and inherits only the story's share.
func TestASumIsNotTheNextAmount(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "cards", Time: ago(55), Text: "信用卡 尾号 3318 额度 为 20,000 元"},
		{Source: "transactions", Time: ago(25), Text: "信用卡 尾号 3318 网上 消费 860 元，已 入账"},
		{Source: "notices", Time: ago(5), Text: "账单 日 为 每月 8 日"},
	}
	firstFor(t, cands, map[string]int{"额度是多少？": 0}) // the card's limit
	cands = append(cands, relevance.Candidate{Source: "cards", Time: ago(2), Text: "尾号 3318 额度 已 提高 到 35,000 元"})
	firstFor(t, cands, map[string]int{"额度是多少？": 3}) // the raised limit
}

// A question that asks how much its object is, and nothing else, finds where
// the object was priced: the order, not the newer payment of the same
// amount (nor its refund: givenBack); a question asking how much was
// refunded still finds the refund.
func TestAPriceQuestionFindsWhereTheObjectWasPriced(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "orders", Time: ago(56), Text: "Order YX-5503: bluetooth earphones, 299.00 EUR"},
		{Source: "logistics", Time: ago(44), Text: "YX-5503 delivered"},
		{Source: "payments", Time: ago(6), Text: "YX-5503 card payment of 299.00 EUR received"},
	}
	for _, q := range []string{"how much did YX-5503 cost?", "how much was YX-5503?", "what's the total on YX-5503?", "YX-5503 多少钱", "YX-5503 price", "YX-5503 amount?"} {
		firstOnlyWith(t, relevance.NewQuery(q, nil), cands, 0, func(w *relevance.Weights) { w.Description = 0 })
	}
	cands[2] = relevance.Candidate{Source: "refunds", Time: ago(6), Text: "YX-5503 refund of 299.00 EUR sent to your card"}
	firstFor(t, cands, map[string]int{"how much was YX-5503?": 0, "YX-5503 多少钱": 0})
	if scores, _ := relevance.Score(relevance.NewQuery("how much was refunded for YX-5503?", nil), cands, relevance.DefaultWeights, nil, testNow); !ranksFirst(scores, 2) {
		t.Errorf("how much was refunded: %.3f, want the refund first", scores)
	}
	// a price raised since is what the object costs now: the newer sum, not
	// the introduction's (nor a renewal's charge of the same price)
	repriced := []relevance.Candidate{
		{Source: "contracts", Time: ago(55), Text: "Water contract WA-3310: monthly advance 41 EUR"},
		{Source: "billing", Time: ago(35), Text: "WA-3310 renewed: 41 EUR taken"},
		{Source: "billing", Time: ago(15), Text: "Monthly advance for WA-3310 raised to 46 EUR"},
		{Source: "meters", Time: ago(5), Text: "Meter reading for WA-3310 received"},
	}
	firstFor(t, repriced, map[string]int{"WA-3310 monthly amount?": 2, "how much is WA-3310?": 2})
	// so is a plan upgraded to a new price in a window of its one object,
	// though the upgrade does not name it; an upgrade free of charge states
	// no new sum
	upgraded := []relevance.Candidate{
		{Source: "subscriptions", Time: ago(55), Text: "Subscription ST-7710 started: Standard plan, 11.99 EUR per month"},
		{Source: "subscriptions", Time: ago(30), Text: "Plan upgraded to Premium: 17.99 EUR per month, from next bill"},
		{Source: "profiles", Time: ago(5), Text: "Profile 'Kids' created"},
	}
	firstFor(t, upgraded, map[string]int{"how much is ST-7710 a month now?": 1})
	free := []relevance.Candidate{
		{Source: "rentals", Time: ago(50), Text: "Rental RC-5510: compact car, 3 days, 180 EUR"},
		{Source: "rentals", Time: ago(30), Text: "RC-5510 upgraded free of charge to an estate car"},
		{Source: "rentals", Time: ago(10), Text: "RC-5510 pick-up desk in hall B"},
	}
	firstFor(t, free, map[string]int{"how much does RC-5510 cost?": 0})
	// a later event stating what the object is now with a sum ("extended, now
	// until Sunday, 260 EUR") states what it costs now, as "raised to" does
	extended := []relevance.Candidate{
		{Source: "hire", Time: ago(58), Text: "Boat hire BH-4410: 2 days from Friday, 180 EUR"},
		{Source: "hire", Time: ago(48), Text: "BH-4410 life jackets added, 12 EUR"},
		{Source: "hire", Time: ago(38), Text: "BH-4410 extended by 1 day, now until Sunday, 260 EUR"},
		{Source: "hire", Time: ago(18), Text: "BH-4410 deposit 300 EUR held on card"},
	}
	firstFor(t, extended, map[string]int{"how much is bh4410 in total?": 2, "how much is BH-4410?": 2})
	// money back is no newer price, though a replacement sent with it says
	// something is another now
	// (with the offline embedder's vectors, as the service ranks)
	credited := embedded(t, tenMinutesApart([]string{"Order SF-5520: corner sofa and 2 armchairs, 1,890 EUR, delivery week 3",
		"SF-5520 armchairs on back order, sofa ships first", "SF-5520 sofa delivery Tuesday 8:00-12:00",
		"SF-5520 sofa delivered, armrest stained, photo received", "SF-5520 replacement cover sent, 60 EUR credit for the stain",
		"SF-5520 armchairs delivery 19 Dec"}))
	q := "how much was SF-5520?"
	qv := embedded(t, []relevance.Candidate{{Text: relevance.WithoutCourtesy(q)}})[0].Embedding
	if scores, comps := relevance.Score(relevance.NewQuery(q, qv), credited, relevance.DefaultWeights, nil, testNow); !ranksFirst(scores, 0) || comps[4].Change != 0 {
		t.Errorf("%q: %q should rank first, the credit no newer sum (change %.1f): %.3f %+v", q, credited[0].Text, comps[4].Change, scores, comps)
	}
}

// A question asking how many looks for the events that state a count: "how
// many people are coming?" shares no word with "Crew of 3 movers assigned",
// and a count that changed ("from 60 to 72") states one too. How many people
// asks for a person too (the movers are named by their role).
func TestAHowManyQuestionLooksForACount(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "bookings", Time: ago(30), Text: "Crew of 3 movers assigned, arrival 7:30"},
		{Source: "bookings", Time: ago(50), Text: "Move booked for Saturday 8:00: 2-bedroom flat to Elm Road"},
		{Source: "payments", Time: ago(10), Text: "Deposit 120.00 EUR received"},
	}
	firstOnlyWith(t, relevance.NewQuery("how many people are coming on moving day?", nil), cands, 0, func(w *relevance.Weights) { w.Count, w.Person = 0, 0 })
	if _, _, f := fused("how many people are coming on moving day?", cands); !slices.Contains(f.Asks, "count") || !slices.Contains(f.Asks, "person") {
		t.Errorf("how many people: fusion asks %v, want count and person", f.Asks)
	}
	for text, want := range map[string]bool{
		"Event confirmed: buffet lunch for 60 guests": true,
		"Guest count changed from 60 to 72":           true,
		"Seats increased from 25 to 30, prorated":     true,
		"Guest count raised to 110; revised quote":    true, // a count named, and what it became
		"Headcount: 14":                                      true,
		"Reply to ticket count 3 to 5 hours":                 false,
		"Tickets: 2 x Jazz Night":                            true,
		"Order placed: olive tree and two lavender plants":   true,
		"搬运师傅 3 名，队长刘师傅":                                     true,
		"订单 SJ-8830：手机 5,299 元，分 12 期 免息":                    true,  // instalments
		"Lesson 7 completed with instructor Petra":           false, // a number that labels
		"Block C, Row 12, Seat 8":                            false,
		"Appointment moved from 14 to 21 March":              false, // dates
		"Charged 18.47 EUR for 34.2 kWh":                     false, // money and a measure
		"Pick-up window 9 to 12 am":                          false,
		"Delivery expected in 3 days":                        false,
		"Visit booked for Tuesday 10:30, technician Priya":   false,
		"XY-0918 取件 时间 周二 晚上 7 点":                            false, // a weekday (周二), not two nights
		"JZ-1175 改 为 每 周 5 次":                                true,
		"Parcel 00340434 out for delivery":                   false, // an identifier
		"DPD 0134 5567 8890 delivered to your neighbour":     false, // a number written in groups
		"Ride ended: 13 minutes, 3.1 km, 4.15 EUR":           false,
		"Order for 500 Mbit fibre placed, contract K-9902":   false,
		"Refund of 40.00 EUR issued to PayPal, case CP-1207": false,
		"成都 锦江 宾馆，12月20日-23日，3 晚 1,260 元":                    true, // nights
		"奶茶 3 杯，实付 39 元":                                     true,
		"Instalment 4 of 12 paid: 210.00 EUR":                true, // how far through a count
		"Aligner set 7 of 20 dispatched":                     true,
		"Lesson 3 of 10 moved to Friday 16:00":               false, // which one moved, no count reached
		"Workspace upgraded to Pro: 12 seats.":               true,  // (a sentence's period, a clause's comma)
		"Venue booked: 80 guests, 6,400.00 EUR":              true,
		"Quantity changed to 1,000 flyers, 139 EUR":          true, // a count in thousands
		"Guest count raised to 1,200; new quote":             true,
		"PR-30412: quantity raised to 1,000, 59 EUR":         true, // the count named "quantity"
		"CT-2209: guest count now 52, price updated":         true, // what it is now
		"Price now 27 EUR":                                   false,
		"Budget: 1,500 EUR":                                  false,
		"Delivery expected in 3 days.":                       false,
		"New card ending 2210 added; 17.99 EUR paid":         false, // a card's end labels it
		"JX-8836 桌数 改 为 24 桌":                                true,  // (tables, schools, pills, orders: 桌, 所, 颗, 单, …)
		"申请 了 3 所 学校":                                        true,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.CountTerm); got != want {
			t.Errorf("%q states a count: %v, want %v", text, got, want)
		}
	}
	for q, want := range map[string]bool{"how many people are coming?": true, "几个人来？": true, "SJ-8830 分几期": true, "酒店住几晚？": true,
		"买了几杯？": true, "几点到？": false, "how much is it?": false, "要几天？": false, "JX8836 几 桌？": true, "一天 吃 几 颗？": true} {
		if got := slices.Contains(relevance.AnswerTypes(q), relevance.CountTerm); got != want {
			t.Errorf("%q asks how many: %v, want %v", q, got, want)
		}
	}
}

// A length in months or years ("24 months", "a 12-month contract", 有效期一年)
// answers a question asking how long, as a time does; a year's number
// ("2026 年") or a rate ("2.50 EUR a month") states none, and a question
// asking when does not look for one. An event stating a time and no length
// answers no "how long" when another states one (timeLacking).
func TestHowLongLooksForALength(t *testing.T) {
	for text, want := range map[string]bool{
		"Contract MB-5510 started: 24 months, 20 GB": true,
		"a 12-month contract":                        true,
		"Warranty valid for two years":               true,
		"会员有效期 一年":                                   true,
		"租期 3 个月":                                    true,
		"2026 年 5 月":                                 false,
		"Glass cover for 2.50 EUR a month":           false,
		"Parcel arrives in 3 days":                   false, // (a time already)
		"第 3 个月 起 月租 99 元":                           false, // (an ordinal: the third month, no length)
		"第三年免年费":                                     false,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.DurationTerm); got != want {
			t.Errorf("%q states a length: %v, want %v", text, got, want)
		}
	}
	cands := []relevance.Candidate{
		{Source: "contracts", Time: ago(58), Text: "Contract MB-5510 started: 24 months, 20 GB, 19.99 EUR per month"},
		{Source: "orders", Time: ago(17), Text: "Number port-in from OldTel scheduled for Friday"},
		{Source: "usage", Time: ago(6), Text: "Number port-in completed; your old SIM no longer works"},
	}
	firstFor(t, cands, map[string]int{"how long is MB-5510?": 0, "when is the port-in?": 1})
	// a time with no length in it ("moved to Saturday 10:00") answers no
	// "how long", when another event states one ("upgraded to 75 min", "5 个
	// 工作日")
	massage := []relevance.Candidate{
		{Source: "spa", Time: ago(58), Text: "Massage booking MS-3310: 45 min, Friday 17:00, 70 EUR"},
		{Source: "spa", Time: ago(38), Text: "MS-3310 upgraded to 75 min, 105 EUR"},
		{Source: "spa", Time: ago(18), Text: "MS-3310 moved to Saturday 10:00"},
	}
	firstFor(t, massage, map[string]int{"how long is ms3310 now?": 1, "when is MS-3310 now?": 2})
	report := []relevance.Candidate{
		{Source: "体检", Time: ago(48), Text: "体检 改期 为 12 月 9 日 上午 8:30"},
		{Source: "体检", Time: ago(28), Text: "报告 预计 体检 后 5 个工作日 出，短信 通知"},
	}
	firstFor(t, report, map[string]int{"报告 多久 能 拿到？": 1})
}

// A question asking what the business said looks for the lines of its side
// of a chat (an agent's, a bot's, 客服's), not the customer's nor a notice.
func TestWhatWasSaidLooksForTheBusinesssLines(t *testing.T) {
	asksFor(t, map[string][]string{"what did you tell me about the skis?": {relevance.SaidTerm}, "客服怎么说？": {relevance.SaidTerm}})
	cands := []relevance.Candidate{
		{Source: "bookings", Time: ago(28), Text: "Special baggage added to KL-77X2: skis, 60.00 EUR"},
		{Source: "chat", Time: ago(29), Text: "Chat (agent): skis count as special baggage, 60.00 EUR each way"},
		{Source: "chat", Time: ago(30), Text: "Chat (customer): can I bring my skis?"},
	}
	firstFor(t, cands, map[string]int{"what did you tell me about the skis?": 1, "are my skis booked?": 0})
}

// "How much" of something measured asks for a quantity, not money: "how much
// energy did my car get?" is answered by "Charging stopped: 41 kWh
// delivered", not by the idle fee; a money word asks for money still ("how
// much does the data cost?", "how much is the water bill?"), and "how much
// longer" asks for a time.
func TestAQuantityIsNoAmount(t *testing.T) {
	for q, want := range map[string][]string{
		"how much energy did my car get?":       {relevance.QuantityTerm},
		"how much mobile data is left?":         {relevance.QuantityTerm},
		"how much shorter are the trousers?":    {relevance.QuantityTerm}, // a measure changed
		"how much longer will the repair take?": {relevance.TimeTerm},
		"how much cheaper is the new plan?":     {relevance.MoneyTerm},
		"我还剩多少流量？":                              {relevance.QuantityTerm},
		"how much does the data cost?":          {relevance.MoneyTerm},
		"how much is it?":                       {relevance.MoneyTerm},
		"how much is the water bill?":           {relevance.MoneyTerm}, // a measurable's price
		"how much is the data plan?":            {relevance.MoneyTerm},
		"how much water did I use?":             {relevance.QuantityTerm},
		"how much was the electricity?":         {relevance.MoneyTerm}, // what the thing cost
		"how much is roaming data?":             {relevance.QuantityTerm},
		// a distance or a weight, and not a limit or a place in a queue
		"how far did we walk?":         {relevance.QuantityTerm},
		"我们骑了多少公里？":                    {relevance.QuantityTerm},
		"how heavy is the parcel?":     {relevance.QuantityTerm},
		"上次加了多少油？":                     {relevance.QuantityTerm}, // a volume
		"SF-1029 用 了 多少 吨？":            {relevance.QuantityTerm}, // how many of a Chinese unit: 吨, 克, 米, …
		"窗帘 要 几 米？":                    {relevance.QuantityTerm},
		"KD-30917 现在 多少 M？":            {relevance.QuantityTerm}, // a line's megabits, data's gigabytes
		"流量 还 有 多少 G？":                 {relevance.QuantityTerm},
		"加了几升？":                        {relevance.QuantityTerm},
		"DG7713 多 大？":                  {relevance.QuantityTerm}, // a size
		"how big is 1187?":             {relevance.QuantityTerm},
		"how far can I go below zero?": nil,
		"how far am I in the queue?":   nil,
		// a line's speed, and not how soon a thing comes
		"how fast is my line?":           {relevance.QuantityTerm},
		"宽带 网速 多少？":                      {relevance.QuantityTerm},
		"KD9920 多少 兆？":                   {relevance.QuantityTerm},
		"how fast will the refund come?": nil,
	} {
		if got := relevance.AnswerTypes(q); !slices.Equal(got, want) {
			t.Errorf("%q asks %q, want %q", q, got, want)
		}
	}
	for text, want := range map[string]bool{
		"Charging stopped: 41 kWh delivered, 20.50 EUR":   true,
		"本月流量已用 25GB，剩余 5GB":                              true,
		"10 月用电 210 度":                                    true,
		"Bought 0.041 BTC for 2,480.00 EUR":               true,
		"Idle fee of 6.00 EUR charged":                    false,
		"Order of 12 items placed":                        false,
		"Delivery in 3 days":                              false,
		"Bike returned after 34 km":                       true,
		"骑行 12 公里":                                        true,
		"DG-7713 改 为 10 寸，补 差价 80 元":                      true, // a length, a weight, an area
		"快递 重 500 克":                                      true,
		"Storage unit SU-B-1187: 10 m², monthly 129 EUR":  true, // an area
		"客厅 面积 35 平米":                                     true,
		"KD-3390 升级 为 500M":                               true, // (a line's megabits; 升级 is no litres)
		"KD-3390 升级 完成":                                   false,
		"Booking QX7P2M: seat 32C":                        false, // (the "2M" of an identifier is no quantity)
		"Parcel weighs 4 lbs":                             true,
		"Fibre order placed: 500 Mbit, 44.99 EUR a month": true,
		"Line upgraded to 1 Gbps":                         true,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.QuantityTerm); got != want {
			t.Errorf("%q states a quantity: %v, want %v", text, got, want)
		}
	}
	cands := []relevance.Candidate{
		{Source: "charging", Time: ago(40), Text: "Charging at Station Hafen stopped: 41 kWh"},
		{Source: "charging", Time: ago(10), Text: "Charging at Station Hafen billed: 20.50 EUR"},
	}
	firstOnlyWith(t, relevance.NewQuery("how much energy did the charging give me?", nil), cands, 0, func(w *relevance.Weights) { w.Amount = 0 })
}

// A delay, a shortage or the weather is a reason (DelayTerm) but no fault: a
// question asking why looks for either, one asking what is wrong with a
// thing for a fault alone ("what was wrong with the car?" is not "Parts
// delayed; car ready Wednesday").
func TestWhatIsWrongIsNoDelay(t *testing.T) {
	for text, want := range map[string]string{
		"Parts delayed; car ready Wednesday":                         relevance.DelayTerm,
		"Next visit moved to Monday: storm forecast for Friday":      relevance.DelayTerm,
		"因暴雨配送延迟":                                                    relevance.DelayTerm,
		"Inspection found worn front brake discs":                    relevance.ReasonTerm,
		"Tom noticed moss in the back lawn":                          relevance.ReasonTerm,
		"Delivery delayed because the van broke down":                relevance.ReasonTerm, // a cause besides the delay
		"Payment of 85.00 GBP for June failed: card expired":         relevance.ReasonTerm,
		"Expansion vessel faulty, part ordered, return visit needed": relevance.ReasonTerm,
		"Return opened for RF-9102: dead pixels in the corner":       relevance.ReasonTerm,
		"Pool closed 10-12 June for maintenance":                     relevance.DelayTerm,
		"Line test: speed 180 Mbit/s, below the 500 ordered":         relevance.ReasonTerm, // a reading under what it should be
		"Hot water not working reported at 08:10":                    relevance.ReasonTerm,
		"Ava had a temperature of 38.4 at 11:00; please collect her": relevance.ReasonTerm, // (someone unwell)
		"您 申请 退货：颜色 和 图片 不 一样":                                       relevance.ReasonTerm, // (not as pictured: why it goes back)
		"Monday Pilates cancelled: studio flooded":                   relevance.ReasonTerm,
		"JD-88120 送货 改到 下周一：小区 周六 限行":                                relevance.DelayTerm,  // (a driving restriction)
		"餐桌 现货，椅子 需 定制，预计 20 天":                                      relevance.DelayTerm,  // (made to order)
		"骑手 上报：商家 出餐 慢，预计 12:50 送达":                                  relevance.DelayTerm,  // (the kitchen slow)
		"物流 师傅 来电：小区 货车 禁行，需 改 为 小车 转运":                              relevance.ReasonTerm, // (no entry for lorries)
		"张医生 周三 停诊，已 改约 周四 上午 9:30":                                  relevance.DelayTerm,  // (someone away)
		"张教练请假，私教课改为周四晚 8 点":                                         relevance.DelayTerm,
		"第 2 次 课 改 到 周日：老师 出差":                                       relevance.DelayTerm,
		"YX-5503 申请退货：左耳没有声音":                                        relevance.ReasonTerm, // (a device that does not work)
		"Data speed throttled to 1 Mbit/s":                           relevance.ReasonTerm,
		"Roaming data used up: speed reduced":                        relevance.ReasonTerm,
		"本月流量已用完，已限速":                                                relevance.ReasonTerm,
		"处方照片模糊，请重新上传":                                               relevance.ReasonTerm,
		"Gym closed on Sunday for cleaning":                          relevance.DelayTerm,
		"搬运 过程 中 衣柜 门 被 刮花":                                          relevance.ReasonTerm,
		"6 月 1 日 下雨，搬家 改 到 6 月 2 日":                                  relevance.DelayTerm, // (the weather)
		"Roofing start moved: rain all week":                         relevance.DelayTerm,
		"Return started: too expensive elsewhere, found it cheaper":  relevance.ReasonTerm,
		"Payout of 80 USD initiated (10% service fee)":               relevance.ReasonTerm, // (a share taken as a fee)
		"检查 结果：加热管 烧坏，需 更换":                                          relevance.ReasonTerm, // (a part burnt out)
		"检修 结果：入户 光纤 弯折，已 重新 布线":                                     relevance.ReasonTerm, // (a cable bent)
		"EL-8830 found: burnt-out junction box, replaced":            relevance.ReasonTerm, // (a part burnt out, 烧坏 above)
		"8830142 12 月 用 气 63 方，207.90 元，阶梯 价 上调":                     relevance.ReasonTerm, // (a price raised: why the bill is higher)
		"Fuse blown in the kitchen circuit":                          relevance.ReasonTerm,
	} {
		terms := relevance.Analyze(text).Terms
		if !slices.Contains(terms, want) || slices.Contains(terms, relevance.ReasonTerm) && slices.Contains(terms, relevance.DelayTerm) {
			t.Errorf("%q: %q, want %s (one of the two only)", text, terms, want)
		}
	}
	cands := []relevance.Candidate{
		{Source: "garage", Time: ago(58), Text: "Car service booked for VW Golf B-RT 2201: Monday 08:00"},
		{Source: "garage", Time: ago(38), Text: "Inspection found worn front brake discs; replacement recommended, 290.00 EUR"},
		{Source: "garage", Time: ago(36), Text: "You approved the brake disc replacement"},
		{Source: "garage", Time: ago(17), Text: "Parts delayed; car ready Wednesday instead of Monday"},
		{Source: "garage", Time: ago(2), Text: "Courtesy car available until your car is ready"},
	}
	firstFor(t, cands, map[string]int{"what was wrong with the car?": 1, "why isn't my car ready?": 3})
	if _, _, f := fused("what was wrong with the car?", cands); !slices.Equal(f.Asks, []string{"fault"}) {
		t.Errorf("asks %v, want [fault]", f.Asks)
	}
	// "什么问题" asks why, as "what's the problem" does, and after a thing
	// ("车有什么问题？") what is wrong with it.
	if _, _, f := fused("车有什么问题？", cands); !slices.Contains(f.Asks, "fault") {
		t.Errorf("车有什么问题？: asks %v, want fault among them", f.Asks)
	}
	// "what did the dentist find?" asks for a finding: a fault, not someone away
	dentist := []relevance.Candidate{
		{Source: "dentist", Time: ago(49), Text: "Check-up done: small cavity in lower left molar, filling needed"},
		{Source: "dentist", Time: ago(22), Text: "Dr Okafor unavailable on 24 Oct; filling now with Dr Brandt, same time"},
	}
	firstFor(t, dentist, map[string]int{"what did the dentist find?": 0})
	if _, _, f := fused("what did the dentist find?", dentist); !slices.Equal(f.Asks, []string{"fault"}) {
		t.Errorf("what did the dentist find?: asks %v, want [fault]", f.Asks)
	}
	// and "怎么坏的？" asks how a thing broke: what is wrong with it, as "what
	// broke?" and 出了什么事 do
	for _, q := range []string{"热水器怎么坏的？", "what broke?", "what's broken?", "快递 出 了 什么 事？"} {
		if _, _, f := fused(q, cands); !slices.Contains(f.Asks, "fault") {
			t.Errorf("%s: asks %v, want fault among them", q, f.Asks)
		}
	}
}

// A person named by a given name alone ("with Tom") answers who, as a role
// does: the case of the word tells the name.
func TestAGivenNameAnswersWho(t *testing.T) {
	cands := []relevance.Candidate{
		{Source: "training", Time: ago(40), Text: "Session 1 done: squat form, start weights 40 kg"},
		{Source: "training", Time: ago(20), Text: "Session 2 done with Tom: deadlift technique"},
		{Source: "training", Time: ago(3), Text: "Session 3 booked: Friday 7:00"},
	}
	firstFor(t, cands, map[string]int{"who trained me?": 1, "who was my trainer?": 1})
	// asked who alone, an event naming no one is less of an answer, however
	// well its words match: the visit naming the cat is no answer to who
	// sees her
	vet := tenMinutesApart([]string{"Appointment VT-4471: cat Momo, vaccination, Friday 11:00", "VT-4471 vet Dr. Hale replaced by Dr. Costa",
		"VT-4471 vaccination done, next booster in 12 months", "VT-4471 invoice 58 EUR: vaccine 40 EUR, exam 18 EUR", "VT-4471 invoice paid by card",
		"Appointment VT-4490: dog Rex, dental check, next Monday"})
	firstWithVectors(t, vet, map[string]int{"who sees Momo at VT-4471": 1})
	// and after a deed's "by", but not a payment's, nor a company's two
	// words; and a line giving someone's name ("name changed to …")
	for text, want := range map[string]bool{
		"55163 name changed to Priya Nair":     true,
		"Friday walk done by Ines: 40 minutes": true,
		"Boiler checked by Anna":               true,
		"Paid by Visa ending 4471":             false,
		"Parcel delivered by Royal Mail":       false,
		"Report due by Friday":                 false,
		"Friday walk done by ines: 40 minutes": false, // (no case, no sign)
		// one standing in for another (personWords: covering, covers)
		"Marta on holiday next two weeks; Jonas covering": true, "Carla covers on 23 Dec": true,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.PersonTerm); got != want {
			t.Errorf("%q names a person: %v, want %v", text, got, want)
		}
	}
}

// A who question is answered by the noun of the one who does what it asks
// (WordNet's person nouns derived from its verb), as by a role: "who tunes
// pt-208?" finds "PT-208 tuner: Ilse Brandt", not the booking of the tuning.
func TestTheDoersNounAnswersWho(t *testing.T) {
	if _, err := os.Stat(relevance.WordNetDir); err != nil {
		t.Skip("WordNet is not installed (make setup installs it)")
	}
	cands := []relevance.Candidate{
		{Source: "jobs", Time: ago(56), Text: "Tuning PT-208: upright piano, Thursday 10:00, 110 EUR"},
		{Source: "jobs", Time: ago(46), Text: "PT-208 tuner: Ilse Brandt"},
		{Source: "jobs", Time: ago(16), Text: "PT-208 done, pitch raised to 440 Hz"},
		{Source: "jobs", Time: ago(6), Text: "Boiler inspection booked for Monday 8:00"},
		{Source: "jobs", Time: ago(3), Text: "Boiler inspector: Jonas Weber"},
	}
	firstFor(t, cands, map[string]int{"who tunes pt-208?": 1, "who inspects the boiler?": 4})
}

// "What did the electrician say?", "医生 怎么 说？" ask what someone who checked
// found (the verdict answer type): the line reporting it ("EI-2207 report:
// …", "体检 报告：…，建议 复查"), not the lines that only name them (the visit
// booked, the electrician late). "What did you say?" and "客服 怎么 说？" ask
// what the business said instead.
func TestWhatSomeoneWhoCheckedSaidIsTheirVerdict(t *testing.T) {
	for q, want := range map[string]bool{
		"what did the electrician say?": true, "what did the blood test say?": true, "医生 怎么 说？": true, "报告 说 什么？": true,
		"what did you say about the refund?": false, "what did they say?": false, "客服 怎么 说？": false, "what did the electrician fix?": false,
		// and what a check showed
		"what did the x-ray show?": true, "what did VT-3310 show?": true, "when is the show?": false,
	} {
		if got := slices.Contains(relevance.AnswerTypes(q), relevance.VerdictTerm); got != want {
			t.Errorf("%q asks for a verdict: %v, want %v", q, got, want)
		}
	}
	inspection := []relevance.Candidate{
		{Source: "jobs", Time: ago(40), Text: "Inspection EI-2207 booked: Tue 9:00, electrician Marko"},
		{Source: "jobs", Time: ago(30), Text: "EI-2207 electrician running 30 minutes late"},
		{Source: "jobs", Time: ago(20), Text: "EI-2207 report: two sockets unsafe, fuse box to be replaced"},
		{Source: "billing", Time: ago(10), Text: "EI-2207 invoice 140 EUR"},
	}
	firstFor(t, inspection, map[string]int{"what did the electrician say?": 2})
	firstWithVectors(t, inspection, map[string]int{"what did the electrician say?": 2})
	checkup := []relevance.Candidate{
		{Source: "体检", Time: ago(40), Text: "体检 预约 TJ-5512：周四 上午 8 点，王 医生"},
		{Source: "体检", Time: ago(30), Text: "TJ-5512 改 到 周五 上午 8 点，王 医生 请假"},
		{Source: "体检", Time: ago(20), Text: "TJ-5512 体检 报告：血压 偏高，建议 复查"},
		{Source: "体检", Time: ago(10), Text: "TJ-5512 体检 费 380 元 已 付"},
	}
	firstFor(t, checkup, map[string]int{"医生 怎么 说？": 2})
	// whether a thing is too much of something asks the same
	dog := []relevance.Candidate{
		{Source: "vet", Time: ago(40), Text: "Check-up for Bruno (dog) booked: Friday 9:00"},
		{Source: "vet", Time: ago(30), Text: "Check-up done: weight 38 kg, overweight, less food advised"},
		{Source: "vet", Time: ago(20), Text: "Bruno's flea treatment due next month"},
		{Source: "shop", Time: ago(10), Text: "Dog food order: 12 kg, 49 EUR"},
	}
	firstFor(t, dog, map[string]int{"is Bruno too fat?": 1})
	// a check's name labelling what it found ("blood test: …") reports a
	// verdict, not one booked ("Blood test booked: …")
	for text, want := range map[string]bool{"VT-3310 blood test: liver values normal": true, "X-ray: no fracture": true,
		"Blood test booked: Mon 8:00, fasting": false, "Visit VT-3310: Milo (dog), limping": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.VerdictTerm); got != want {
			t.Errorf("%q states a verdict: %v, want %v", text, got, want)
		}
	}
	visit := tenMinutesApart([]string{"Visit VT-3310: Milo (dog), limping, Tuesday 10:00", "VT-3310 X-ray: small fracture in the left paw",
		"VT-3310 bandage and rest for 3 weeks", "VT-3310 invoice 210 EUR paid", "VT-3310 recheck in 3 weeks"})
	firstWithVectors(t, visit, map[string]int{"what did VT-3310 show?": 1, "what did the x-ray show?": 1})
	firstWithVectors(t, dog, map[string]int{"is Bruno too fat?": 1})
	// (with vectors too: the lines stating no verdict keep Weights.Unstated
	// of their match, as for a question what was wrong)
	firstWithVectors(t, checkup, map[string]int{"医生 怎么 说？": 2})
}

// "What car am I getting?", "我 租 的 是 什么 车？" ask which vehicle (the
// vehicle answer type): the line naming one by its make, model or kind
// ("Renault Clio", "丰田 卡罗拉", "SUV instead of compact", a plate after
// "car", a car changed to another), not the lines saying "car" alone (the
// desk moved to the car park) nor a child seat.
func TestWhichVehicleIsNamedByItsMake(t *testing.T) {
	for q, want := range map[string]bool{
		"what car am I getting?": true, "which van is vr8812?": true, "我 租 的 是 什么 车？": true,
		"which card is on file?": false, "where do I park the car?": false, "what model is my new phone?": false,
	} {
		if got := slices.Contains(relevance.AnswerTypes(q), relevance.VehicleTerm); got != want {
			t.Errorf("%q asks for a vehicle: %v, want %v", q, got, want)
		}
	}
	for text, want := range map[string]bool{
		"RT-5512: you get a Renault Clio or similar": true, "Permit P-NO-44108: zone 2, car AB-1234": true,
		"44108 car changed to EF-9012": true, "ZC-6620 分配 车辆：丰田 卡罗拉": true,
		"RT-5512 pick-up desk moved to car park B": false, "RT-5512 child seat added, 4 EUR a day": false,
	} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.VehicleTerm); got != want {
			t.Errorf("%q states a vehicle: %v, want %v", text, got, want)
		}
	}
	rental := []relevance.Candidate{
		{Source: "rentals", Time: ago(40), Text: "Rental RT-5512: economy car, Faro airport, 2-9 May, 189 EUR"},
		{Source: "rentals", Time: ago(30), Text: "RT-5512 pick-up desk moved to car park B"},
		{Source: "rentals", Time: ago(20), Text: "RT-5512: you get a Renault Clio or similar"},
		{Source: "rentals", Time: ago(10), Text: "RT-5512 child seat added, 4 EUR a day"},
	}
	firstFor(t, rental, map[string]int{"what car am I getting?": 2})
	firstWithVectors(t, rental, map[string]int{"what car am I getting?": 2})
	zh := []relevance.Candidate{
		{Source: "租车", Time: ago(40), Text: "租车 订单 ZC-6620：经济 型，5 月 2 日 取车"},
		{Source: "租车", Time: ago(30), Text: "ZC-6620 取车 地点 改 到 2 号 航站楼"},
		{Source: "租车", Time: ago(20), Text: "ZC-6620 分配 车辆：丰田 卡罗拉"},
		{Source: "租车", Time: ago(10), Text: "ZC-6620 还车 时 请 加满 油"},
	}
	firstFor(t, zh, map[string]int{"我 租 的 是 什么 车？": 2})
	firstWithVectors(t, zh, map[string]int{"我 租 的 是 什么 车？": 2})
}

// "What level am I?" asks for a level (the level answer type): the line
// naming one ("Placement test result: B2"), which shares no word with the
// question, over the newer lines on the course.
func TestWhichLevelIsNamedByTheLevel(t *testing.T) {
	for q, want := range map[string]bool{"what level am I?": true, "which level is the course?": true, "英语 几级？": true, "how am I doing?": false} {
		if got := slices.Contains(relevance.AnswerTypes(q), relevance.LevelTerm); got != want {
			t.Errorf("%q asks for a level: %v, want %v", q, got, want)
		}
	}
	course := []relevance.Candidate{
		{Source: "school", Time: ago(40), Text: "Enrolled in the French evening course, Mondays 18:00"},
		{Source: "school", Time: ago(30), Text: "Placement test result: B2, welcome to the group"},
		{Source: "school", Time: ago(20), Text: "Classroom for the French course changed to room 3.01"},
		{Source: "billing", Time: ago(10), Text: "Course fee 280 EUR paid"},
	}
	firstFor(t, course, map[string]int{"what level am I?": 1})
	firstWithVectors(t, course, map[string]int{"what level am I?": 1})
}

// "Which flight took 44018293?" asks for a flight (the flight answer type):
// the line naming one by its number ("departed on EK147"), not those
// naming the shipment alone; "on 14 May" names no flight.
func TestWhichFlightIsNamedByItsNumber(t *testing.T) {
	for text, want := range map[string]bool{"44018293 departed on EK147": true, "AWB 176-55120310 loaded on LH 8402": true,
		"Shipment arrives on 14 May at 10:00": false, "No 2 of 3 pieces received": false, "Check-in for PL-4471 opens at 10:00": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.FlightTerm); got != want {
			t.Errorf("%q names a flight: %v, want %v", text, got, want)
		}
	}
	cargo := []relevance.Candidate{
		{Source: "cargo", Time: ago(40), Text: "Air waybill 176-55120310 booked: 2 pieces, 80 kg, FRA to JFK"},
		{Source: "cargo", Time: ago(30), Text: "55120310 loaded on LH 8402"},
		{Source: "cargo", Time: ago(20), Text: "55120310 arrived at JFK, customs check"},
		{Source: "cargo", Time: ago(10), Text: "55120310 released, ready for pickup"},
	}
	firstFor(t, cargo, map[string]int{"which flight took 55120310?": 1})
	firstWithVectors(t, cargo, map[string]int{"which flight took 55120310?": 1})
}

// "What book do I need?" asks for a work by its title (the title answer
// type): the line naming one in quotes ("Reading list for week 3: 'Il
// piccolo principe'"), which shares no word with the question; an
// apostrophe ("Luna's") is no quote.
func TestWhichWorkIsNamedByItsTitle(t *testing.T) {
	for text, want := range map[string]bool{"Reading list for week 3: 'Il piccolo principe'": true, "电影 票 订单：《流浪 地球 3》，周五 19:30": true,
		"Luna's vaccination is due": false, "Class on 12 May moved online": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.TitleTerm); got != want {
			t.Errorf("%q names a title: %v, want %v", text, got, want)
		}
	}
	course := []relevance.Candidate{
		{Source: "school", Time: ago(40), Text: "Enrolled: Italian A1, Tuesdays 18:00"},
		{Source: "school", Time: ago(30), Text: "Reading list for week 3: 'Il piccolo principe'"},
		{Source: "school", Time: ago(20), Text: "Class on 12 May moved online"},
		{Source: "billing", Time: ago(10), Text: "Course fee 260 EUR paid"},
	}
	firstFor(t, course, map[string]int{"what book do I need?": 1})
	firstWithVectors(t, course, map[string]int{"what book do I need?": 1})
	// (a workshop, a talk, a song, an exhibition go by their titles too)
	conference := []relevance.Candidate{
		{Source: "events", Time: ago(50), Text: "Registration CF-6610: DevDays 2027, 2 days, early bird 390 EUR"},
		{Source: "events", Time: ago(40), Text: "CF-6610 workshop 'Go in production' added, 120 EUR"},
		{Source: "events", Time: ago(30), Text: "CF-6610 workshop moved to room B2"},
		{Source: "events", Time: ago(20), Text: "CF-6610 badge ready at the registration desk"},
		{Source: "events", Time: ago(10), Text: "Registration CF-6677: waiting list"},
	}
	firstWithVectors(t, conference, map[string]int{"what workshop am I in on CF-6610?": 1})
}

// "Did I say yes to the cassette?" asks what the customer agreed to (the
// consent answer type): "You approved the chain only" (no: the chain only),
// not the quote that asked for it nor the repair done since.
func TestWhatTheCustomerAgreedToIsTheirConsent(t *testing.T) {
	for text, want := range map[string]bool{"You approved the chain only": true, "Customer: ok, replace the pads": true,
		"Quote for MV-3318 accepted: 640.00 GBP": true, "您 同意 更换 刹车 片": true, "BK-220 quote: chain 25 EUR, approve?": false} {
		if got := slices.Contains(relevance.Analyze(text).Terms, relevance.ConsentTerm); got != want {
			t.Errorf("%q says what the customer agreed to: %v, want %v", text, got, want)
		}
	}
	bike := []relevance.Candidate{
		{Source: "repairs", Time: ago(40), Text: "Repair BK-220 booked: gears skipping"},
		{Source: "repairs", Time: ago(30), Text: "BK-220 quote: chain 25 EUR + cassette 40 EUR, approve?"},
		{Source: "repairs", Time: ago(20), Text: "You approved the chain only"},
		{Source: "repairs", Time: ago(10), Text: "BK-220 ready for pick-up until 18:00"},
	}
	firstFor(t, bike, map[string]int{"did I say yes to the cassette?": 2, "what did I agree to?": 2})
	firstWithVectors(t, bike, map[string]int{"did I say yes to the cassette?": 2})
}
