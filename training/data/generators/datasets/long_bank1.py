# Paragraph banks for long benign documents. Slots filled by long_gen.py
EMAIL = dict(
open=["Hi {colleague},", "Dear {colleague},", "Hello team,", "Good morning {colleague},", "Hey {colleague} —", "Dear all,"],
body=[
"I wanted to follow up on our conversation from {day} about the {project} timeline. After looking at the resourcing plan again, I think we can still hit the end-of-month milestone, but only if we move the data migration ahead of the UI work. The migration has more unknowns, and if something goes wrong there I would rather find out in week one than in week four.",
"Quick update on the vendor situation: {company} came back with a revised quote this morning. The licence cost is about {amount} lower than their first offer, but they have removed on-site training from the package. I'm not sure that's a good trade, because half of the warehouse staff have never used a scanner-based system before.",
"As you know, {name} is going on parental leave from the first of next month. I've drafted a hand-over document that lists her open tickets, the recurring reports she owns, and the contacts at the two suppliers she manages. Could you have a look and tell me if anything obvious is missing? I'd like to walk through it with her on {day}.",
"Please ignore the calendar invite I sent yesterday for the quarterly review; it went out with the wrong room. The correct one is the large meeting room on the third floor, and the time is unchanged. Sorry for the noise, the booking system defaulted to last year's template.",
"I've attached the draft budget for next year. The biggest change is in travel, which I have cut by roughly a third now that most client workshops are remote. I've moved part of that money into training, because the team asked for proper courses on cloud cost management and I think it will pay for itself.",
"One thing I'd like your opinion on: the customer satisfaction survey results for {product} dipped slightly this quarter, mostly in the comments about delivery times. I don't think it's a product issue at all. It looks like the courier change in {city} caused most of the delays, and those should be resolved now.",
"Regarding the new onboarding process, HR has asked every manager to nominate a buddy for each new starter. The buddy doesn't need to be on the same team; the idea is simply that there's someone to ask the questions people feel awkward asking their manager, like where to find the stationery or how expense claims work.",
"I spoke with legal about the contract renewal. They are fine with most of the changes, but they want the liability clause to stay as it is in the current version, and they've asked us to add a clear data retention period. I told them we'd propose ninety days after termination and see how the client reacts.",
"The office move is now confirmed for the weekend of the {date}. IT will disconnect desktops on Friday afternoon, so please make sure anything important is saved to the shared drive, not to your local machine. Laptops can come with you as normal. Boxes will be delivered on Wednesday.",
"Thanks again for covering the support rota last week. I know it landed on you at short notice, and the feedback from the customers you spoke to was really positive. I've mentioned it to {name}, and I'd like to make sure it's reflected in your review this year.",
"I've been thinking about how we run our weekly stand-ups. They've crept up to forty minutes, which defeats the purpose. My suggestion is that we go back to the three questions, park any detailed discussion for after the meeting, and rotate who facilitates so it's not always me cutting people off.",
"Could you send me the final figures for the {project} pilot when you have them? The board pack is due on {day}, and I'd rather include real numbers than estimates. If the data isn't ready, a short note explaining the delay is fine too; they'd rather hear that than see numbers we later have to correct.",
"The system upgrade on the finance server is scheduled for Saturday night. During the maintenance window, which should last about four hours, nobody will be able to log in to the accounting software. The admin team will send a message once everything is back up. Please plan month-end tasks around this.",
"A reminder that expense claims for the conference in {city} need to be submitted by the end of the month, with receipts attached. Hotel bills should be itemised, because the finance team can't approve a single total without a breakdown. If you lost a receipt, there is a short declaration form you can use instead.",
],
close=["Let me know what you think.\n\nBest,\n{name}", "Thanks,\n{name}", "Happy to discuss on a call if that's easier.\n\nKind regards,\n{name}", "Cheers,\n{name}", "Speak soon,\n{name}", "Many thanks in advance,\n{name}\n{company}"],
)

MEETING = dict(
open=["Meeting notes — {project} weekly sync, {date}", "Minutes: {team} planning meeting ({date})", "Notes from the {project} retrospective", "Summary of {day}'s steering committee"],
body=[
"Attendees: {name}, {colleague}, and three members of the {team} team. {name2} sent apologies. The meeting started ten minutes late because the previous session in the room overran.",
"Status: the back-end work for {project} is about eighty percent done. The remaining items are the export feature and the audit log. Front-end work is behind by roughly a week because of the design changes requested after the last user test. Nobody thinks the launch date is at risk yet, but it will be if the design changes keep coming.",
"Discussion on testing: {colleague} raised the point that our end-to-end tests take almost an hour to run, which means people skip them before merging. The group agreed to split them into a fast smoke suite that runs on every pull request and a full suite that runs nightly. {name} will write up a proposal.",
"Risks: the main risk is the dependency on the payments team, who are in the middle of their own migration. If their new API isn't available by the end of the month, we will have to ship with the old integration and switch over later, which means doing the work twice.",
"Customer feedback from the beta: users like the new dashboard but find the filter options confusing. Several people didn't realise they could save a filter. The suggestion was to add a short tooltip and to make the save button more prominent rather than redesigning the whole panel.",
"Budget: spending is on track. The cloud bill went up last month because of a load test that was left running over a weekend. {colleague} has set up an alert so that any environment running for more than twelve hours without activity sends a message to the channel.",
"Decisions: (1) we will freeze new feature requests for {project} after {day}; (2) the documentation will move from the wiki to the repository so that it is reviewed alongside code; (3) the demo for stakeholders will be recorded instead of live, to avoid the network problems we had last time.",
"Action items: {name} to draft the testing proposal by Friday; {colleague} to contact the payments team about their timeline; {name2} to update the onboarding guide with the new environment variables; everyone to review the accessibility checklist before the next sync.",
"What went well: the pairing sessions between new joiners and senior engineers were popular, and the incident on {day} was resolved quickly because the runbook was up to date. What didn't go well: too many meetings were scheduled over lunch, and the ticket board was not kept current.",
"Open questions: should the admin panel be part of this release or the next one? The product owner would prefer to include it, but the team is worried about scope. It was agreed to revisit the question once the export feature is finished and we have a better sense of the remaining capacity.",
"Security review: the external review found no critical issues. There were two medium findings, both about overly broad permissions on service accounts, and one low finding about verbose error messages. All three have tickets and owners, and the medium ones are due before launch.",
"Hiring: two candidates for the senior role are in the final round. The panel will be {name}, {colleague} and someone from the platform team. Feedback should be submitted within a day of each interview so that we can make an offer quickly; we lost a good candidate last quarter by being slow.",
],
close=["Next meeting: same time next week.", "Notes taken by {name2}. Please send corrections by end of day.", "Meeting closed at 11:05.", "Next steps will be tracked on the {project} board."],
)

REVIEW = dict(
open=["Review of the {product}", "{product} — my honest review after three months", "Long review: {product}", "Verified purchase — {product}"],
body=[
"I bought the {product} after my old one finally gave up, and I did a fair amount of research beforehand. The reviews were mostly positive, but a few people complained about the build quality, so I went in with slightly lowered expectations. Out of the box it feels more solid than I expected, and the packaging was minimal and mostly recyclable.",
"Setup took about fifteen minutes. The instructions were clear enough, although the diagram for attaching the base was tiny and I needed a magnifying glass to see which screw went where. The app asked for more permissions than I think it needs, so I denied location access and everything still works fine.",
"In daily use it's been reliable. I use it every morning and it has not failed once. The noise level is reasonable: you can hear it from the next room, but it's not the high-pitched whine my previous model had. Cleaning is easy if you do it regularly; if you leave it for a week, it becomes a chore.",
"Battery life is where it disappoints a bit. The box claims up to ten hours, but with normal use I get closer to six. That is still enough for a working day, but anyone expecting to go a full weekend without charging will be let down. Charging from empty takes about two hours with the supplied cable.",
"Customer service deserves a mention. One of the attachments arrived cracked, and I contacted support expecting a long back-and-forth. Instead, they sent a replacement within three days, no photos or return shipping required. That kind of thing makes me much more likely to buy from {company} again.",
"Compared with the cheaper alternatives, it's noticeably better in the details: the buttons have a satisfying click, the display is readable in sunlight, and the firmware updates have actually added features rather than just fixing bugs. Whether that's worth the extra money depends on how often you'll use it.",
"My main complaint is the companion app. It insists on creating an account, it shows promotional banners, and the settings are buried three menus deep. Everything important can be done with the physical buttons, thankfully, so I've mostly stopped opening the app.",
"My partner, who is much less patient with gadgets than I am, has started using it too, which is probably the best endorsement I can give. The default settings are sensible, and the one-button mode means nobody has to read the manual.",
"After three months, there's some wear on the rubber feet and the finish has picked up a couple of scratches, but nothing that affects function. I'd like to see replaceable parts offered on the website; at the moment you can only buy the whole unit.",
"Would I recommend it? Yes, with reservations. If you want something that just works and you're willing to ignore an annoying app, it's a solid choice. If battery life is your top priority, look elsewhere. Four stars from me.",
"One tip for anyone buying: update the firmware before you do anything else. The version mine shipped with had a bug where the timer reset itself, and the first update fixed it. It took five minutes over Wi-Fi.",
],
close=["Overall: 4/5.", "Rating: 3.5 out of 5.", "Would buy again.", "Hope this helps someone decide."],
)

TICKET = dict(
open=["Support ticket #{num} — {product}", "Subject: Problem with {product} after update", "Ticket: cannot access account ({company})", "Bug report: {product} sync fails"],
body=[
"Since the update on {day}, the {product} app crashes as soon as I open the settings screen. It worked fine before. I'm on a two-year-old phone with the latest operating system version, and I have plenty of free storage. Other apps work normally.",
"Steps to reproduce: open the app, log in, tap the profile icon, then tap 'Settings'. The screen goes white for a second and the app closes. It happens every time. I've tried restarting the phone and reinstalling the app, but the problem persists.",
"I also tried clearing the cache as suggested in your help centre article. That didn't make a difference. I did notice that if I open settings while offline, the screen loads, but I can't change anything because it says the connection is required.",
"This is quite urgent for us because our whole team uses the app to log their hours, and we can't change the reporting period without the settings screen. Payroll closes on {date}, so we'd appreciate a workaround before then if a fix isn't possible.",
"For context, our account has twelve users and I am the administrator. Two other users on the same plan have the same issue, but one colleague on an older version of the app doesn't. That makes me think it's related to the update rather than our account.",
"I'd like to request a password reset link for the admin account. I changed phones last week and my authenticator codes didn't transfer, so I'm locked out of two-factor authentication. I can verify my identity with the billing details or the last invoice number if that helps.",
"The error message says 'Sync failed: conflict on record 4471'. I have no idea what record 4471 is. The last successful sync was on {day}. Since then, changes I make on the laptop don't appear on the tablet, and vice versa.",
"Our invoices for the last two months show a charge for fifteen seats, but we reduced our plan to ten seats in {month}. I have the confirmation email from your team. Could you please correct the invoices and refund the difference to the card on file?",
"I'm happy to send logs or screenshots if you tell me where to find them. I'm not very technical, so step-by-step instructions would be appreciated. I'm available for a call any weekday between nine and five.",
"Please disregard my earlier ticket about the login issue, that one is resolved — it turned out to be a typo in the company domain. This ticket is only about the sync problem.",
"Environment: Windows 11, desktop app version 5.2.1, company network with a proxy. The web version works fine from the same machine, which suggests the desktop app isn't picking up the proxy settings.",
],
close=["Thanks for your help,\n{name}", "Regards,\n{name}, {company}", "Looking forward to your reply.", "Priority: normal. Customer since 2021."],
groups=[[0,1,2,3,4,8,10],[5],[6,9],[7]],
max_groups=2, transition=["\n\nAlso, a separate issue: ", "\n\nOne more thing while I have you. "],
)
